/**
 * Sent when a refund the buyer was told about is sent back by their bank (a closed or lost card):
 * the money did not reach them, it is still owed, and they will be contacted; in their language.
 */
import type { ReactNode } from "react";
import { Text } from "@react-email/text";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { type ParcelItem, ParcelItems } from "./components/parcel-items";
import { refundCard, StoreLink } from "./components/store-link";
import { refundSentBackReasonKey } from "../server/core/messages";

export type RefundFailedProps = Localised & {
  orderNumber: string;
  storeName: string;
  /** The store's site, linked for questions ("" when unknown: no link). */
  storeUrl: string;
  /** What was bought, as listed. */
  items: ParcelItem[];
  /** The refund sent back, in cents. */
  amountCents: number;
  /** The processor's code for why (`expired_or_canceled_card`). */
  failureReason: string;
  cardLast4: string | null;
};

export const previewProps: RefundFailedProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  orderNumber: "SO-7K3M9QX2-1",
  storeName: "Maple & Thread",
  storeUrl: "https://maple-and-thread.example.ca",
  items: [{ title: "Wool coat", size: "M", quantity: 1 }],
  amountCents: 8999,
  failureReason: "expired_or_canceled_card",
  cardLast4: "4242",
};

export const subject = (props: RefundFailedProps) => {
  const intl = emailIntl(props);
  return intl.t("orders.refundFailed.subject", {
    number: props.orderNumber,
    amount: intl.money(props.amountCents),
  });
};

export default function RefundFailed(props: RefundFailedProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const card = refundCard(props.cardLast4, intl);
  const amount = intl.money(props.amountCents);
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  const reason = refundSentBackReasonKey(props.failureReason);
  return (
    <EmailLayout
      intl={intl}
      preview={t("orders.refundFailed.preview", { amount, card })}
      heading={t("orders.refundFailed.heading")}
      footer={t("orders.email.footer")}
    >
      <Text style={{ marginBottom: 0 }}>
        {t.rich("orders.refundFailed.body", {
          store: props.storeName,
          amount,
          number: props.orderNumber,
          card,
          strong,
        })}
      </Text>
      <ParcelItems items={props.items} intl={intl} />
      <Text>
        {t("orders.refundFailed.why", { reason: t(`orders.refundFailed.reasons.${reason}`) })}
      </Text>
      <Text>{t("orders.refundFailed.next", { store: props.storeName })}</Text>
      <StoreLink intl={intl} storeName={props.storeName} storeUrl={props.storeUrl} />
    </EmailLayout>
  );
}
