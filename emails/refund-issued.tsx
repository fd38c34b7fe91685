/**
 * Sent when money from an order goes back to the buyer's card: what, how much, and when it arrives,
 * in their language; for an order its store cancelled, that it was cancelled and will not ship.
 */
import type { ReactNode } from "react";
import { Text } from "@react-email/text";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { refundCard, StoreLink } from "./components/store-link";
import { type ParcelItem, ParcelItems } from "./components/parcel-items";

export type RefundIssuedProps = Localised & {
  orderNumber: string;
  storeName: string;
  /** The store's site, linked for questions ("" when unknown: no link). */
  storeUrl: string;
  /** What was bought, as listed. */
  items: ParcelItem[];
  /** This refund, and all refunds of the order so far, and the order's total, in cents. */
  amountCents: number;
  refundedCents: number;
  orderTotalCents: number;
  /** Why, as the operator or the store gave it (their words: not translated). */
  reason: string;
  cardLast4: string | null;
  /**
   * The store cancelled the order (ops order:cancel): the email says so and that it will not ship,
   * not only that money was refunded. Absent in emails queued before it existed: a refund.
   */
  storeCancelled?: boolean;
};

export const previewProps: RefundIssuedProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  orderNumber: "SO-7K3M9QX2-1",
  storeName: "Maple & Thread",
  storeUrl: "https://maple-and-thread.example.ca",
  items: [{ title: "Wool coat", size: "M", quantity: 1 }],
  amountCents: 8999,
  refundedCents: 8999,
  orderTotalCents: 11_254,
  reason: "The store could not ship the order.",
  cardLast4: "4242",
};

export const subject = (props: RefundIssuedProps) => {
  const intl = emailIntl(props);
  return intl.t(
    props.storeCancelled ? "orders.refund.cancelled.subject" : "orders.refund.subject",
    {
      number: props.orderNumber,
      amount: intl.money(props.amountCents),
    },
  );
};

export default function RefundIssued(props: RefundIssuedProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const card = refundCard(props.cardLast4, intl);
  const amount = intl.money(props.amountCents);
  const total = intl.money(props.orderTotalCents);
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  return (
    <EmailLayout
      intl={intl}
      preview={
        props.storeCancelled
          ? t("orders.refund.cancelled.preview", { store: props.storeName, amount })
          : t("orders.refund.preview", { amount, card })
      }
      heading={t(
        props.storeCancelled ? "orders.refund.cancelled.heading" : "orders.refund.heading",
      )}
      footer={t("orders.email.footer")}
    >
      <Text style={{ marginBottom: 0 }}>
        {t.rich(props.storeCancelled ? "orders.refund.cancelled.body" : "orders.refund.body", {
          store: props.storeName,
          amount,
          number: props.orderNumber,
          strong,
        })}
      </Text>
      <ParcelItems items={props.items} intl={intl} />
      <Text>{t("orders.refund.why", { reason: props.reason })}</Text>
      <Text>{t("orders.refund.when", { card })}</Text>
      <Text>
        {props.refundedCents >= props.orderTotalCents
          ? t("orders.refund.full", { total })
          : t("orders.refund.partial", { refunded: intl.money(props.refundedCents), total })}
      </Text>
      <StoreLink intl={intl} storeName={props.storeName} storeUrl={props.storeUrl} />
    </EmailLayout>
  );
}
