"use client";
/**
 * The purchase list. Cancel calls the dashboard procedure through @trpc/client, then the list is
 * read again in place (no reload); the list is also refreshed every 15 s so a charge or a cancel
 * from the email shows up. Times left count from the server's clock at first render, then the
 * browser's, so the server and browser render the same text. Text in the page's language, times in
 * the person's zone (the page names it once), money as the locale writes it.
 */
import { useCallback, useEffect, useState } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, messageOf } from "@/app/_trpc/client";
import { useLocale, useTranslations } from "next-intl";
import type { TMyPurchase, TMyPurchaseItem, TMyPurchasesResponse } from "@/server/dashboard";
import { formatMoney, formatTime, formatTimeLeft, type Locale } from "@/server/core/locale";
import { isConditionKey, purchaseReasonKey } from "@/server/core/messages";
import { parseCents } from "@/server/core/money";
import { NoticeLine, type Notice } from "../notice-line";
import { Pager } from "../pager";

const refreshMs = 15_000;

const statusTones: Partial<Record<TMyPurchase["status"], string>> = {
  held: "warn",
  paid: "ok",
  requires_person: "accent",
};

/** The purchase's items: picture, title, size as listed, condition and store. */
function PurchaseItems({ items }: { items: TMyPurchaseItem[] }) {
  const t = useTranslations("common.summary");
  return (
    <ul className="bought-items" data-testid="purchase-items">
      {items.map((item, index) => (
        <li key={index} className="bought-item">
          {item.image_url ? (
            <img
              src={item.image_url}
              alt={t("picture", { title: item.title })}
              width={64}
              height={80}
            />
          ) : (
            <span className="bought-item-blank" aria-hidden />
          )}
          <div>
            <p className="bought-item-title">
              {item.quantity > 1
                ? t("quantityTitle", { quantity: item.quantity, title: item.title })
                : item.title}
            </p>
            <p className="muted small">
              {[
                item.size ? t("size", { size: item.size }) : null,
                isConditionKey(item.condition) ? t(`condition.${item.condition}`) : null,
                item.store,
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

function PurchaseRow({
  purchase,
  nowMs,
  busy,
  timeZone,
  onCancel,
}: {
  purchase: TMyPurchase;
  nowMs: number;
  busy: boolean;
  timeZone: string;
  onCancel: (purchase: TMyPurchase) => void;
}) {
  const t = useTranslations("purchases");
  const locale = useLocale() as Locale;
  const when = (iso: string) => formatTime(new Date(iso), locale, timeZone);
  const money = (amount: string) => formatMoney(parseCents(amount), locale);
  const tOrders = useTranslations("orders");
  const name = purchase.order_number ?? purchase.purchase_id;
  const sentBack = purchase.refund_sent_back;
  const chargesIn =
    purchase.status === "held" && purchase.charges_at
      ? formatTimeLeft(new Date(nowMs), new Date(purchase.charges_at), locale)
      : null;
  const canCancel = purchase.can_cancel && Date.parse(purchase.cancel_until) > nowMs;
  return (
    <li
      className="panel"
      data-testid="purchase"
      data-purchase-id={purchase.purchase_id}
      aria-label={t("dashboard.purchase", { name })}
    >
      <h2>
        {purchase.stores.join(", ")}{" "}
        <span
          className={`badge ${statusTones[purchase.status] ?? ""}`}
          data-testid="purchase-status"
        >
          {t(`status.${purchase.status}`)}
        </span>
      </h2>
      <PurchaseItems items={purchase.items} />
      <dl className="facts">
        <dt>{t("dashboard.total")}</dt>
        <dd className="amount" data-testid="purchase-total">
          {money(purchase.grand_total.amount)}
        </dd>
        {purchase.refunded ? (
          <>
            <dt>{t("dashboard.refunded")}</dt>
            <dd data-testid="refunded">{money(purchase.refunded.amount)}</dd>
          </>
        ) : null}
        {purchase.refund_on_its_way ? (
          <>
            <dt>{t("dashboard.refundOnItsWay")}</dt>
            <dd data-testid="refund-on-its-way">{money(purchase.refund_on_its_way.amount)}</dd>
          </>
        ) : null}
        <dt>{t("dashboard.assistant")}</dt>
        <dd>{purchase.assistant}</dd>
        <dt>{t("dashboard.order")}</dt>
        <dd data-testid="purchase-order">{name}</dd>
        <dt>{t("dashboard.bought")}</dt>
        <dd>{when(purchase.created_at)}</dd>
        {purchase.status === "held" && purchase.charges_at ? (
          <>
            <dt>{t("dashboard.chargedIn")}</dt>
            <dd data-testid="charges-in">
              {chargesIn
                ? t("dashboard.chargesAt", { left: chargesIn, time: when(purchase.charges_at) })
                : t("dashboard.beingCharged")}
            </dd>
          </>
        ) : null}
        {purchase.reason && purchase.status !== "paid" ? (
          <>
            <dt>{t("dashboard.why")}</dt>
            <dd>{t(`reason.${purchaseReasonKey(purchase.reason)}`)}</dd>
          </>
        ) : null}
      </dl>
      {sentBack ? (
        <div role="status" className="notice warn" data-testid="refund-sent-back">
          <p>
            {t("refundSentBack.text", {
              amount: money(sentBack.amount.amount),
              time: when(sentBack.at),
              reason: tOrders(`refundFailed.reasons.${sentBack.reason}`),
            })}
          </p>
        </div>
      ) : null}
      {canCancel ? (
        <div className="button-row" style={{ marginTop: 12 }}>
          <button
            type="button"
            className="button secondary"
            disabled={busy}
            onClick={() => onCancel(purchase)}
          >
            {t("dashboard.cancel")}
          </button>
          <span className="hint">
            {t("dashboard.cancelHint", { time: when(purchase.cancel_until) })}
          </span>
        </div>
      ) : null}
    </li>
  );
}

export function PurchasesPanel({ initial }: { initial: TMyPurchasesResponse }) {
  const t = useTranslations("purchases.dashboard");
  const [list, setList] = useState(initial);
  const [nowMs, setNowMs] = useState(() => Date.parse(initial.now));
  const [notice, setNotice] = useState<Notice>(null);
  const [isRunning, setIsRunning] = useState(false);
  // Disabled until hydrated too: a click before then would be lost (see use-action.ts).
  const isHydrated = useHydrated();
  const busy = isRunning || !isHydrated;

  const load = useCallback(async (page: number) => {
    const fresh = await dashboardClient.account.listMyPurchases.query({ page });
    setList(fresh);
    setNowMs(Date.now());
  }, []);

  useEffect(() => {
    const timer = setInterval(() => void load(list.page).catch(() => undefined), refreshMs);
    return () => clearInterval(timer);
  }, [load, list.page]);

  const cancel = async (purchase: TMyPurchase) => {
    setIsRunning(true);
    try {
      const result = await dashboardClient.account.cancelMyPurchase.mutate({
        purchase_id: purchase.purchase_id,
      });
      setNotice({
        tone: "ok",
        text: result.already_cancelled ? t("alreadyCancelledNotice") : t("cancelledNotice"),
      });
    } catch (error) {
      setNotice({ tone: "error", text: messageOf(error) });
    } finally {
      await load(list.page).catch(() => undefined);
      setIsRunning(false);
    }
  };

  const goTo = async (page: number) => {
    setIsRunning(true);
    try {
      await load(page);
      setNotice(null);
    } catch (error) {
      setNotice({ tone: "error", text: messageOf(error) });
    } finally {
      setIsRunning(false);
    }
  };

  return (
    <>
      <NoticeLine notice={notice} />
      {list.purchases.length === 0 ? (
        <p className="panel" data-testid="no-purchases">
          {list.page === 1 ? t("empty") : t("noMore")}
        </p>
      ) : (
        <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {list.purchases.map((purchase) => (
            <PurchaseRow
              key={purchase.purchase_id}
              purchase={purchase}
              nowMs={nowMs}
              busy={busy}
              timeZone={list.time_zone}
              onCancel={(chosen) => void cancel(chosen)}
            />
          ))}
        </ul>
      )}
      <Pager
        page={list.page}
        hasMore={list.has_more}
        busy={busy}
        onGoTo={(page) => void goTo(page)}
      />
    </>
  );
}
