/** Sent when a checkout's orders were placed but its payment could not be collected (the bank released the hold first): nothing was charged and the orders do not ship. In the buyer's language. */
import { Text } from "@react-email/text";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout } from "./components/layout";

export type PaymentFailedProps = Localised & {
  firstName: string | null;
  orderNumber: string;
  grandTotalCents: number;
};

export const previewProps: PaymentFailedProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  firstName: "Ana",
  orderNumber: "SO-7K3M9QX2",
  grandTotalCents: 15_701,
};

export const subject = (props: PaymentFailedProps) =>
  emailIntl(props).t("orders.paymentFailed.subject", { number: props.orderNumber });

export default function PaymentFailed(props: PaymentFailedProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  return (
    <EmailLayout
      intl={intl}
      preview={t("orders.paymentFailed.preview", { number: props.orderNumber })}
      heading={t("orders.paymentFailed.heading")}
    >
      <Text>
        {props.firstName
          ? t("orders.paymentFailed.hello", { firstName: props.firstName })
          : t("orders.paymentFailed.helloNoName")}
      </Text>
      <Text>
        {t.rich("orders.paymentFailed.body", {
          number: props.orderNumber,
          total: intl.money(props.grandTotalCents),
          strong: (chunks) => <strong>{chunks}</strong>,
        })}
      </Text>
      <Text>{t("orders.paymentFailed.next")}</Text>
    </EmailLayout>
  );
}
