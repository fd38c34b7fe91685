/** Sent when an assistant's purchase ends: charged, cancelled with nothing charged (by the person, item sold elsewhere, copy not delivered), or the hold lapsed before the charge. */
import { Text } from "@react-email/components";
import { EmailLayout } from "./components/layout";

export type PurchaseClosedProps = {
  orderNumber: string;
  grandTotal: string;
  outcome: "charged" | "cancelled" | "item_sold" | "notice_undelivered" | "hold_expired";
};

const headings: Record<PurchaseClosedProps["outcome"], string> = {
  charged: "Your card was charged",
  cancelled: "Your purchase is cancelled",
  item_sold: "The item sold elsewhere: nothing was charged",
  notice_undelivered: "Your purchase is cancelled: nothing was charged",
  hold_expired: "Your purchase could not be charged: nothing was charged",
};

const texts: Record<PurchaseClosedProps["outcome"], string> = {
  charged: "was charged to your saved card. The stores ship it and email you its tracking number.",
  cancelled: "is cancelled as you asked. The hold on your card is released; nothing was charged.",
  item_sold:
    "is cancelled because the item sold elsewhere before the charge. The hold on your card is released; nothing was charged.",
  notice_undelivered:
    "is cancelled because we could not deliver its copy (with the cancel link) to you in time. The hold on your card is released; nothing was charged.",
  hold_expired:
    "could not be charged: your bank had already released the hold on your card. The order is not placed and nothing was charged.",
};

export const subject = (props: PurchaseClosedProps) =>
  `Order ${props.orderNumber}: ${headings[props.outcome].toLowerCase()}`;

export default function PurchaseClosed(props: PurchaseClosedProps) {
  const { orderNumber = "SO-7K3M9QX2", grandTotal = "157.01", outcome = "charged" } = props;
  return (
    <EmailLayout preview={headings[outcome]} heading={headings[outcome]}>
      <Text>
        Order <strong>{orderNumber}</strong> (${grandTotal} CAD) {texts[outcome]}
      </Text>
    </EmailLayout>
  );
}
