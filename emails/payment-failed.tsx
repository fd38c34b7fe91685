/** Sent when a checkout's orders were placed but its payment could not be collected (the bank released the hold first): nothing was charged and the orders do not ship. */
import { Text } from "@react-email/components";
import { EmailLayout } from "./components/layout";

export type PaymentFailedProps = {
  firstName: string | null;
  orderNumber: string;
  grandTotal: string;
};

export const subject = (props: PaymentFailedProps) =>
  `Order ${props.orderNumber}: we could not collect your payment`;

export default function PaymentFailed(props: PaymentFailedProps) {
  const { firstName = null, orderNumber = "SO-7K3M9QX2", grandTotal = "157.01" } = props;
  return (
    <EmailLayout
      preview={`Order ${orderNumber}: nothing was charged and the order is on hold`}
      heading="We could not collect your payment"
    >
      <Text>{firstName ? `Hi ${firstName},` : "Hello,"}</Text>
      <Text>
        Your bank released the hold on your card before we could collect the payment for order{" "}
        <strong>{orderNumber}</strong> (${grandTotal} CAD). Nothing was charged, and the order is on
        hold: it does not ship until it is paid.
      </Text>
      <Text>
        We will contact you about it. You can also reply to this email, or ask the app you ordered
        from for a new checkout link.
      </Text>
    </EmailLayout>
  );
}
