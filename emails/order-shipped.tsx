/** Sent when a store ships its order: carrier and tracking number. */
import { Text } from "@react-email/components";
import { EmailLayout } from "./components/layout";

export type OrderShippedProps = {
  orderNumber: string;
  storeName: string;
  carrier: string;
  trackingNumber: string;
  items: string[];
};

export const subject = (props: OrderShippedProps) => `Order ${props.orderNumber} has shipped`;

export default function OrderShipped({
  orderNumber = "SO-7K3M9QX2-1",
  storeName = "Maple & Thread",
  carrier = "Canada Post",
  trackingNumber = "7023 4567 8901 2345",
  items = ["Wool coat (M)"],
}: OrderShippedProps) {
  return (
    <EmailLayout
      preview={`${storeName} shipped order ${orderNumber}`}
      heading="Your parcel is on its way"
      footer="You get this email because an order was paid with this address."
    >
      <Text>
        {storeName} shipped order <strong>{orderNumber}</strong> with {carrier}.
      </Text>
      <Text>
        Tracking number: <strong>{trackingNumber}</strong>
      </Text>
      <Text>In this parcel: {items.join(", ")}.</Text>
    </EmailLayout>
  );
}
