/** Sent when money from an order goes back to the person's card: what, how much, and when it arrives. */
import { Text } from "@react-email/components";
import { EmailLayout } from "./components/layout";

export type RefundIssuedProps = {
  orderNumber: string;
  storeName: string;
  /** What was bought, as listed: "Wool coat (M)". */
  items: string[];
  /** This refund, and all refunds of the order so far, in dollars ("12.50"). */
  amount: string;
  refundedTotal: string;
  orderTotal: string;
  /** Why: the store cancelled the order, a return, … */
  reason: string;
  cardLast4: string | null;
};

const isFull = (props: RefundIssuedProps) => props.refundedTotal === props.orderTotal;

export const subject = (props: RefundIssuedProps) =>
  `Order ${props.orderNumber}: $${props.amount} refunded`;

export default function RefundIssued(props: RefundIssuedProps) {
  const {
    orderNumber = "SO-7K3M9QX2-1",
    storeName = "Maple & Thread",
    items = ["Wool coat (M)"],
    amount = "89.99",
    refundedTotal = "89.99",
    orderTotal = "112.54",
    reason = "The store could not ship the order.",
    cardLast4 = "4242",
  } = props;
  const card = cardLast4 ? `your card ending in ${cardLast4}` : "the card you paid with";
  return (
    <EmailLayout
      preview={`$${amount} CAD is on its way back to ${card}`}
      heading="Your refund is on its way"
      footer="You get this email because an order was paid with this address."
    >
      <Text>
        {storeName} refunded <strong>${amount} CAD</strong> of order <strong>{orderNumber}</strong>{" "}
        ({items.join(", ")}).
      </Text>
      <Text>Why: {reason}</Text>
      <Text>
        The money goes back to {card}. Banks usually show it within 5 to 10 business days; the date
        it appears depends on your bank.
      </Text>
      <Text>
        {isFull({ ...props, refundedTotal, orderTotal } as RefundIssuedProps)
          ? `The order is refunded in full ($${orderTotal} CAD).`
          : `Refunded so far: $${refundedTotal} of $${orderTotal} CAD.`}
      </Text>
    </EmailLayout>
  );
}
