/** Sent to the checkout email when a checkout is paid: the order number and each store's order. */
import { Text } from "@react-email/components";
import { EmailLayout } from "./components/layout";
import { type EmailStoreOrder, MoneyRow, StoreOrderBlock } from "./components/order-summary";

export type OrderConfirmationProps = {
  firstName?: string | null;
  orderNumber: string;
  stores: EmailStoreOrder[];
  totals: { subtotal: string; shipping: string; tax: string; grandTotal: string };
  shipTo: string[];
};

export const subject = (props: OrderConfirmationProps) =>
  `Your order ${props.orderNumber} is confirmed`;

const example: OrderConfirmationProps = {
  firstName: "Ana",
  orderNumber: "SO-7K3M9QX2",
  stores: [
    {
      storeName: "Maple & Thread",
      orderNumber: "SO-7K3M9QX2-1",
      items: [{ title: "Wool coat", size: "M", quantity: 1, lineTotal: "129.00" }],
      shippingLabel: "Canada Post Regular Parcel",
      shipping: "9.95",
      delivery: "Nov 26 – Dec 3",
      taxLines: [{ name: "HST", rate: "13%", amount: "18.06" }],
      total: "157.01",
    },
  ],
  totals: { subtotal: "129.00", shipping: "9.95", tax: "18.06", grandTotal: "157.01" },
  shipTo: ["Ana Tremblay", "100 Queen St W", "Toronto ON M5H 2N2"],
};

export default function OrderConfirmation(props: OrderConfirmationProps) {
  const { firstName, orderNumber, stores, totals, shipTo } = { ...example, ...props };
  return (
    <EmailLayout
      preview={`Order ${orderNumber}: ${stores.length} store${stores.length > 1 ? "s" : ""}, $${totals.grandTotal} CAD`}
      heading={`Thank you for your order${firstName ? `, ${firstName}` : ""}`}
      footer="You get this email because an order was paid with this address."
    >
      <Text>
        Your order number is <strong>{orderNumber}</strong>. Each store ships its own parcel; we
        email you its tracking number when it leaves.
      </Text>
      {stores.map((store) => (
        <StoreOrderBlock key={store.orderNumber} order={store} />
      ))}
      <MoneyRow label="Items" amount={totals.subtotal} />
      <MoneyRow label="Shipping" amount={totals.shipping} />
      <MoneyRow label="Tax" amount={totals.tax} />
      <MoneyRow label="Paid (CAD)" amount={totals.grandTotal} strong />
      <Text style={{ marginTop: 16 }}>Shipping to: {shipTo.join(", ")}</Text>
    </EmailLayout>
  );
}
