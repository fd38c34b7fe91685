/**
 * Sent when an assistant's purchase ends: charged, cancelled with nothing charged (by the person,
 * item sold elsewhere, copy not delivered), or the hold lapsed before the charge. It shows who
 * bought it and what was bought; once charged, how to ask the store for a refund. In the person's
 * language and zone (emails/components/i18n.ts).
 */
import { Text } from "@react-email/text";
import type { OrderSummary } from "../server/core/order-summary";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { sampleSummary } from "./components/sample-summary";
import { WhatWasBought } from "./components/what-was-bought";

export const purchaseOutcomes = [
  "charged",
  "cancelled",
  "item_sold",
  "notice_undelivered",
  "hold_expired",
] as const;
export type PurchaseOutcome = (typeof purchaseOutcomes)[number];

export type PurchaseClosedProps = Localised & {
  orderNumber: string;
  /** The assistant's name, as it registered. */
  assistant: string;
  summary: OrderSummary;
  outcome: PurchaseOutcome;
  /** When it ended (ISO): the charge's time for `charged`. */
  closedAt: string;
};

/** An email written before issue 27 (English, the total already formatted): still sent as it was. */
type LegacyProps = { orderNumber: string; grandTotal: string; outcome: PurchaseOutcome };

const isCurrent = (props: PurchaseClosedProps | LegacyProps): props is PurchaseClosedProps =>
  "summary" in props && Boolean(props.summary);

const legacyHeadings: Record<PurchaseOutcome, string> = {
  charged: "Your card was charged",
  cancelled: "Your purchase is cancelled",
  item_sold: "The item sold elsewhere: nothing was charged",
  notice_undelivered: "Your purchase is cancelled: nothing was charged",
  hold_expired: "Your purchase could not be charged: nothing was charged",
};

export const subject = (props: PurchaseClosedProps | LegacyProps) =>
  isCurrent(props)
    ? emailIntl(props).t(`purchases.closedEmail.subject.${props.outcome}`, {
        number: props.orderNumber,
      })
    : `Order ${props.orderNumber}: ${legacyHeadings[props.outcome].toLowerCase()}`;

/** Sample props for tests and the screenshots: a charged purchase of one item. */
export const previewProps: PurchaseClosedProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  orderNumber: "SO-7K3M9QX2",
  assistant: "Errand Assistant",
  outcome: "charged",
  closedAt: "2026-11-28T16:05:00.000Z",
  summary: sampleSummary,
};

/** "Maison Friperie (SO-7K3M9QX2-1), Atelier Nord (SO-7K3M9QX2-2)": whom to ask, with what number. */
const storesWithNumbers = (summary: OrderSummary, fallbackNumber: string) =>
  summary.stores
    .map((store) => `${store.storeName} (${store.orderNumber ?? fallbackNumber})`)
    .join(", ");

export default function PurchaseClosed(props: PurchaseClosedProps | LegacyProps) {
  if (!isCurrent(props)) {
    const heading = legacyHeadings[props.outcome];
    return (
      <EmailLayout preview={heading} heading={heading}>
        <Text>
          Order <strong>{props.orderNumber}</strong> (${props.grandTotal} CAD) — {heading}.
        </Text>
      </EmailLayout>
    );
  }
  const intl = emailIntl(props);
  const { t } = intl;
  const heading = t(`purchases.closedEmail.heading.${props.outcome}`);
  const charged = props.outcome === "charged";
  return (
    <EmailLayout preview={heading} heading={heading} intl={intl} showsTimes={charged}>
      <Text>
        {t(`purchases.closedEmail.text.${props.outcome}`, {
          number: props.orderNumber,
          total: intl.money(props.summary.totals.totalCents),
          time: intl.time(props.closedAt),
        })}
      </Text>
      <Text>{t("purchases.boughtBy", { assistant: props.assistant })}</Text>
      {charged ? (
        <Text>
          {t("purchases.closedEmail.refund", {
            stores: storesWithNumbers(props.summary, props.orderNumber),
          })}
        </Text>
      ) : null}
      <WhatWasBought summary={props.summary} intl={intl} />
    </EmailLayout>
  );
}
