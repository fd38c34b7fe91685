/** Sent when an assistant's purchase is held: what was bought, when the card is charged, and the cancel link (valid until cancel_until). */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type PurchaseCopyProps = {
  orderNumber: string;
  assistant: string;
  grandTotal: string;
  chargesAt: string;
  cancelUntil: string;
  cancelUrl: string;
};

export const subject = (props: PurchaseCopyProps) =>
  `${props.assistant} bought order ${props.orderNumber} for you: cancel until ${props.cancelUntil}`;

export default function PurchaseCopy(props: PurchaseCopyProps) {
  const {
    orderNumber = "SO-7K3M9QX2",
    assistant = "Your assistant",
    grandTotal = "157.01",
    chargesAt = "Nov 23, 2026, 9:00 p.m. UTC",
    cancelUntil = "Nov 23, 2026, 9:00 p.m. UTC",
    cancelUrl = "http://localhost:3000/purchases/pur_x/cancel?token=example",
  } = props;
  return (
    <EmailLayout
      preview={`Order ${orderNumber}: $${grandTotal} CAD on hold, charged ${chargesAt} unless you cancel`}
      heading="A purchase was made for you"
    >
      <Text>
        {assistant} bought order <strong>{orderNumber}</strong> for you. Your saved card has a hold
        of <strong>${grandTotal} CAD</strong>; it is charged on {chargesAt} unless you cancel.
      </Text>
      <Text>You can cancel until {cancelUntil}: the hold is released and nothing is charged.</Text>
      <Button href={cancelUrl} style={buttonStyle}>
        Review or cancel
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>Or open: {cancelUrl}</Text>
    </EmailLayout>
  );
}
