"use client";
/**
 * The purchase list. Cancel calls the dashboard procedure through @trpc/client, then the list is
 * read again in place (no reload); the list is also refreshed every 15 s so a charge or a cancel
 * from the email shows up. Times left count from the server's clock at first render, then the
 * browser's, so the server and browser render the same text.
 */
import { useCallback, useEffect, useState } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, messageOf } from "@/app/_trpc/client";
import type { TMyPurchase, TMyPurchasesResponse } from "@/server/dashboard";
import { dollars } from "../limits/dollars";
import { NoticeLine, type Notice } from "../notice-line";
import { Pager } from "../pager";

const refreshMs = 15_000;

const statusLabels: Record<TMyPurchase["status"], string> = {
  held: "Held",
  paid: "Paid",
  processing: "Waiting for the bank",
  requires_person: "Needs you",
  refused: "Refused",
  cancelled: "Cancelled",
  refunded: "Refunded",
};
const statusTones: Partial<Record<TMyPurchase["status"], string>> = {
  held: "warn",
  paid: "ok",
  requires_person: "accent",
};

/** "3 h 12 min" from milliseconds; "less than a minute" under one. */
const timeLeft = (ms: number) => {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "less than a minute";
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
};

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function PurchaseRow({
  purchase,
  nowMs,
  busy,
  onCancel,
}: {
  purchase: TMyPurchase;
  nowMs: number;
  busy: boolean;
  onCancel: (purchase: TMyPurchase) => void;
}) {
  const name = purchase.order_number ?? purchase.purchase_id;
  const chargesIn =
    purchase.status === "held" && purchase.charges_at
      ? Date.parse(purchase.charges_at) - nowMs
      : null;
  const canCancel = purchase.can_cancel && Date.parse(purchase.cancel_until) > nowMs;
  return (
    <li
      className="panel"
      data-testid="purchase"
      data-purchase-id={purchase.purchase_id}
      aria-label={`Purchase ${name}`}
    >
      <h2>
        {purchase.stores.join(", ")}{" "}
        <span
          className={`badge ${statusTones[purchase.status] ?? ""}`}
          data-testid="purchase-status"
        >
          {statusLabels[purchase.status]}
        </span>
      </h2>
      <dl className="facts">
        <dt>Total</dt>
        <dd>{dollars(purchase.grand_total.amount)} CAD</dd>
        {purchase.refunded ? (
          <>
            <dt>Refunded</dt>
            <dd data-testid="refunded">{dollars(purchase.refunded.amount)} CAD</dd>
          </>
        ) : null}
        <dt>Assistant</dt>
        <dd>{purchase.assistant}</dd>
        <dt>Order</dt>
        <dd>{name}</dd>
        <dt>Bought</dt>
        <dd>{when(purchase.created_at)}</dd>
        {chargesIn !== null ? (
          <>
            <dt>Charged in</dt>
            <dd data-testid="charges-in">
              {chargesIn > 0
                ? `${timeLeft(chargesIn)} (${when(purchase.charges_at!)})`
                : "being charged now"}
            </dd>
          </>
        ) : null}
        {purchase.reason && purchase.status !== "paid" ? (
          <>
            <dt>Why</dt>
            <dd>{purchase.reason.replaceAll("_", " ")}</dd>
          </>
        ) : null}
      </dl>
      {canCancel ? (
        <div className="button-row" style={{ marginTop: 12 }}>
          <button
            type="button"
            className="button secondary"
            disabled={busy}
            onClick={() => onCancel(purchase)}
          >
            Cancel purchase
          </button>
          <span className="hint">Until {when(purchase.cancel_until)}; nothing is charged.</span>
        </div>
      ) : null}
    </li>
  );
}

export function PurchasesPanel({ initial }: { initial: TMyPurchasesResponse }) {
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
        text: result.already_cancelled
          ? "This purchase was already cancelled."
          : "The purchase is cancelled: the hold on your card is released and nothing is charged.",
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
          {list.page === 1 ? "No assistant has bought anything for you yet." : "No more purchases."}
        </p>
      ) : (
        <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {list.purchases.map((purchase) => (
            <PurchaseRow
              key={purchase.purchase_id}
              purchase={purchase}
              nowMs={nowMs}
              busy={busy}
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
