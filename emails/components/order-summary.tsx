/** The per-store blocks of an order email: items, shipping, tax lines and the store's total. Amounts arrive formatted. */
import { Column, Row, Section, Text } from "@react-email/components";

export type EmailStoreOrder = {
  storeName: string;
  orderNumber: string;
  items: { title: string; size: string | null; quantity: number; lineTotal: string }[];
  shippingLabel: string;
  shipping: string;
  delivery: string;
  taxLines: { name: string; rate: string; amount: string }[];
  total: string;
};

const muted = { color: "#6b655f", fontSize: 13, margin: 0 };
const line = { margin: "2px 0", fontSize: 14 };

export const MoneyRow = ({
  label,
  amount,
  strong,
}: {
  label: string;
  amount: string;
  strong?: boolean;
}) => (
  <Row>
    <Column style={{ ...line, fontWeight: strong ? 700 : 400 }}>{label}</Column>
    <Column align="right" style={{ ...line, fontWeight: strong ? 700 : 400 }}>
      ${amount}
    </Column>
  </Row>
);

export const StoreOrderBlock = ({ order }: { order: EmailStoreOrder }) => (
  <Section
    style={{ border: "1px solid #e6e1da", borderRadius: 8, padding: "12px 16px", marginBottom: 12 }}
  >
    <Text style={{ fontWeight: 700, margin: "0 0 2px" }}>{order.storeName}</Text>
    <Text style={muted}>Order {order.orderNumber}</Text>
    {order.items.map((item, index) => (
      <MoneyRow
        key={index}
        label={`${item.quantity} × ${item.title}${item.size ? ` (${item.size})` : ""}`}
        amount={item.lineTotal}
      />
    ))}
    <MoneyRow label={`${order.shippingLabel} · ${order.delivery}`} amount={order.shipping} />
    {order.taxLines.map((tax) => (
      <MoneyRow key={tax.name} label={`${tax.name} ${tax.rate}`} amount={tax.amount} />
    ))}
    <MoneyRow label="Store total" amount={order.total} strong />
  </Section>
);
