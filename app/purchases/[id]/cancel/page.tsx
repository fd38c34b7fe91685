import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { WhatWasBought } from "@/app/_components/what-was-bought";
import { ZoneNote } from "@/app/_components/zone-note";
import { pageCaller } from "@/app/_trpc/server";
import { formatMoney, formatTime, formatTimeLeft, type Locale } from "@/server/core/locale";
import { parseCents } from "@/server/core/money";
import { cancelPurchaseAction } from "./actions";

export const dynamic = "force-dynamic";

export const generateMetadata = async () => ({
  title: (await getTranslations("purchases.cancelPage"))("metaTitle"),
});

type Inspected = Awaited<
  ReturnType<Awaited<ReturnType<typeof pageCaller>>["purchasePage"]["inspectCancel"]>
>;

const cancelledReasons = ["cancelled_by_person", "item_sold", "notice_undelivered"] as const;
const cancelledReason = (reason: string | null) =>
  cancelledReasons.find((known) => known === reason) ?? "other";

/** A link that does not verify (changed, for another purchase, long expired): what to do instead. */
async function InvalidLink() {
  const t = await getTranslations("purchases.cancelPage.invalid");
  return (
    <section
      className="auth-card wide purchase-card"
      aria-labelledby="purchase-title"
      data-state="invalid"
    >
      <h1 id="purchase-title">{t("title")}</h1>
      <p className="lede">{t("text")}</p>
      <p>
        <Link href="/account/purchases" className="button primary block">
          {t("link")}
        </Link>
      </p>
    </section>
  );
}

/** What happened to the purchase and what the person can do: the part that differs by state. */
async function StateNotice({
  purchase,
  token,
  time,
}: {
  purchase: Inspected;
  token: string;
  time: (iso: string) => string;
}) {
  const t = await getTranslations("purchases.cancelPage");
  const locale = (await getLocale()) as Locale;
  const total = formatMoney(purchase.grand_total_cents, locale);
  const number = purchase.order_number ?? "";
  switch (purchase.state) {
    case "cancellable": {
      const left = formatTimeLeft(new Date(purchase.now), new Date(purchase.cancel_until), locale);
      return (
        <ActionForm action={cancelPurchaseAction}>
          <input type="hidden" name="id" value={purchase.purchase_id} />
          <input type="hidden" name="token" value={token} />
          <div className="notice warn">
            <h2>{t("held.title")}</h2>
            <p>
              {t("held.text", { total, time: time(purchase.charges_at ?? purchase.cancel_until) })}
            </p>
            <p>{t("held.until", { time: time(purchase.cancel_until), left: left ?? "" })}</p>
          </div>
          <FormMessage />
          <SubmitButton className="button primary block">{t("held.button")}</SubmitButton>
        </ActionForm>
      );
    }
    case "cancelled":
      return (
        <div className="notice ok" role="status">
          <h2>{t("cancelled.title")}</h2>
          <p>{t(`cancelled.${cancelledReason(purchase.reason)}`)}</p>
        </div>
      );
    case "charged":
      return (
        <div className="notice info">
          <h2>{t("charged.title")}</h2>
          <p>{t("charged.text", { total })}</p>
          <p>{t("charged.refund")}</p>
          <ul className="store-numbers">
            {purchase.summary.stores.map((store, index) => (
              <li key={index}>
                {t("charged.store", {
                  store: store.storeName,
                  number: store.orderNumber ?? number,
                })}
              </li>
            ))}
          </ul>
        </div>
      );
    case "too_late":
      return (
        <div className="notice warn">
          <h2>{t("tooLate.title")}</h2>
          <p>{t("tooLate.text", { total, time: time(purchase.cancel_until) })}</p>
          <p>{t("tooLate.refund")}</p>
          <ul className="store-numbers">
            {purchase.summary.stores.map((store, index) => (
              <li key={index}>
                {t("charged.store", {
                  store: store.storeName,
                  number: store.orderNumber ?? number,
                })}
              </li>
            ))}
          </ul>
        </div>
      );
    case "refunded":
      return (
        <div className="notice ok">
          <h2>{t("refunded.title")}</h2>
          <p>{t("refunded.text")}</p>
        </div>
      );
    default:
      return (
        <div className="notice info">
          <h2>{t("nothingHeld.title")}</h2>
          <p>{t("nothingHeld.text")}</p>
        </div>
      );
  }
}

type Refunds = Awaited<
  ReturnType<Awaited<ReturnType<typeof pageCaller>>["purchaseRefunds"]["ofCancelLink"]>
>;

/** A refund the bank sent back (a closed card): it did not reach the person, who is still owed it. */
async function SentBackNotice({
  sentBack,
  time,
}: {
  sentBack: NonNullable<Refunds["refund_sent_back"]>;
  time: (iso: string) => string;
}) {
  const t = await getTranslations("purchases.refundSentBack");
  const tReasons = await getTranslations("orders.refundFailed.reasons");
  const locale = (await getLocale()) as Locale;
  return (
    <div className="notice warn" role="status" data-testid="refund-sent-back">
      <h2>{t("title")}</h2>
      <p>
        {t("text", {
          amount: formatMoney(parseCents(sentBack.amount.amount), locale),
          time: time(sentBack.at),
          reason: tReasons(sentBack.reason),
        })}
      </p>
    </div>
  );
}

/**
 * Where the purchase copy email's cancel link lands. Opening it changes nothing (mail scanners open
 * links): it shows the purchase, what it bought and who bought it, and while it can be cancelled
 * one button, which posts the cancel; after that, the page shows the cancelled state. Times are in
 * the person's zone (their saved province's), named once at the bottom.
 */
export default async function CancelPurchasePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ token?: string }>;
}) {
  const { id } = await params;
  const token = (await searchParams).token ?? "";
  const purchase = await (
    await pageCaller()
  ).purchasePage
    .inspectCancel({ id, token })
    .catch(() => undefined);
  if (!purchase) return <InvalidLink />;
  // What became of its refunds, once it was charged: one the bank sent back is said first.
  const refunds =
    purchase.state === "refunded" || purchase.state === "charged"
      ? await (await pageCaller()).purchaseRefunds.ofCancelLink({ id, token })
      : undefined;
  const t = await getTranslations("purchases");
  const locale = (await getLocale()) as Locale;
  const time = (iso: string) => formatTime(new Date(iso), locale, purchase.time_zone);
  return (
    <section
      className="auth-card wide purchase-card"
      aria-labelledby="purchase-title"
      data-state={purchase.state}
    >
      <div>
        <h1 id="purchase-title">
          {purchase.order_number
            ? t("cancelPage.heading", { number: purchase.order_number })
            : t("cancelPage.headingNoNumber")}
        </h1>
        <p className="lede">{t("boughtBy", { assistant: purchase.assistant })}</p>
      </div>
      {refunds?.refund_sent_back ? (
        <SentBackNotice sentBack={refunds.refund_sent_back} time={time} />
      ) : null}
      {/* "Refunded" says the money went back: not when all of it was sent back by the bank. */}
      {purchase.state === "refunded" && refunds?.refund_sent_back && !refunds.refunded ? null : (
        <StateNotice purchase={purchase} token={token} time={time} />
      )}
      <dl className="facts">
        <dt>{t("cancelPage.total")}</dt>
        <dd className="amount">{formatMoney(purchase.grand_total_cents, locale)}</dd>
        <dt>{t("cancelPage.assistant")}</dt>
        <dd>{purchase.assistant}</dd>
        <dt>{t("cancelPage.bought")}</dt>
        <dd>{time(purchase.created_at)}</dd>
        {purchase.state === "cancellable" || purchase.state === "too_late" ? (
          <>
            {purchase.charges_at ? (
              <>
                <dt>{t("cancelPage.chargesAt")}</dt>
                <dd>{time(purchase.charges_at)}</dd>
              </>
            ) : null}
            <dt>{t("cancelPage.cancelUntil")}</dt>
            <dd>{time(purchase.cancel_until)}</dd>
          </>
        ) : null}
        {purchase.charged_at ? (
          <>
            <dt>{t("cancelPage.chargedAt")}</dt>
            <dd>{time(purchase.charged_at)}</dd>
          </>
        ) : null}
      </dl>
      <WhatWasBought summary={purchase.summary} headingLevel={2} />
      <ZoneNote timeZone={purchase.time_zone} />
    </section>
  );
}
