/** The items of one store order as a short list (title, size as listed, quantity): the shipped and refund emails. */
import { Text } from "@react-email/text";
import type { EmailIntl } from "./i18n";

export type ParcelItem = { title: string; size: string | null; quantity: number };

export const parcelItemText = (item: ParcelItem, intl: EmailIntl) => {
  const named = item.size
    ? intl.t("orders.email.itemWithSize", { title: item.title, size: item.size })
    : item.title;
  return item.quantity > 1
    ? intl.t("orders.email.itemQuantity", { quantity: item.quantity, item: named })
    : named;
};

export const ParcelItems = ({ items, intl }: { items: ParcelItem[]; intl: EmailIntl }) => (
  <ul style={{ margin: "4px 0 16px", paddingLeft: 20 }}>
    {items.map((item, index) => (
      <li key={index}>
        <Text style={{ margin: "2px 0" }}>{parcelItemText(item, intl)}</Text>
      </li>
    ))}
  </ul>
);
