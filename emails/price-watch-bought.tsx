/** Sent when a price watch buys: the order, the price it bought at, the total on hold, and the purchase's cancel link (until the charge). */
import { Button, Text } from "@react-email/components";
import { EmailLayout, buttonStyle } from "./components/layout";

export type PriceWatchBoughtProps = {
  title: string;
  price: string;
  grandTotal: string;
  orderNumber: string;
  chargesAt: string;
  cancelUrl: string;
};

export const subject = (props: PriceWatchBoughtProps) =>
  `Your price watch bought ${props.title} at $${props.price} (order ${props.orderNumber})`;

export default function PriceWatchBought(props: PriceWatchBoughtProps) {
  const {
    title = "Wool coat",
    price = "79.00",
    grandTotal = "94.92",
    orderNumber = "SO-7K3M9QX2",
    chargesAt = "Nov 23, 2026, 9:00 p.m. UTC",
    cancelUrl = "http://localhost:3000/purchases/pur_x/cancel?token=example",
  } = props;
  return (
    <EmailLayout
      preview={`Order ${orderNumber}: ${title} at $${price}`}
      heading="Your price watch bought it"
    >
      <Text>
        The price of <strong>{title}</strong> fell to ${price} CAD, so your price watch bought it:
        order <strong>{orderNumber}</strong>, ${grandTotal} CAD with shipping and tax, on hold on
        your saved card. The card is charged on {chargesAt} unless you cancel.
      </Text>
      <Button href={cancelUrl} style={buttonStyle}>
        Review or cancel the purchase
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>Or open: {cancelUrl}</Text>
    </EmailLayout>
  );
}
