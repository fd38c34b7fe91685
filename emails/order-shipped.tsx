/** Sent when a store ships its order: carrier, tracking number and what is in the parcel, in the buyer's language and zone. */
import type { ReactNode } from "react";
import { Text } from "@react-email/text";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { StoreLink } from "./components/store-link";
import { type ParcelItem, ParcelItems } from "./components/parcel-items";

export type OrderShippedProps = Localised & {
  orderNumber: string;
  storeName: string;
  /** The store's site, linked for questions ("" when unknown: no link). */
  storeUrl: string;
  carrier: string;
  trackingNumber: string;
  /** When the store shipped it (ISO). */
  shippedAt: string;
  items: ParcelItem[];
};

export const previewProps: OrderShippedProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  orderNumber: "SO-7K3M9QX2-1",
  storeName: "Maple & Thread",
  storeUrl: "https://maple-and-thread.example.ca",
  carrier: "Canada Post",
  trackingNumber: "7023 4567 8901 2345",
  shippedAt: "2026-11-28T14:30:00.000Z",
  items: [{ title: "Wool coat", size: "M", quantity: 1 }],
};

export const subject = (props: OrderShippedProps) =>
  emailIntl(props).t("orders.shipped.subject", { number: props.orderNumber });

export default function OrderShipped(props: OrderShippedProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  return (
    <EmailLayout
      intl={intl}
      showsTimes
      preview={t("orders.shipped.preview", { store: props.storeName, number: props.orderNumber })}
      heading={t("orders.shipped.heading")}
      footer={t("orders.email.footer")}
    >
      <Text>
        {t.rich("orders.shipped.body", {
          store: props.storeName,
          number: props.orderNumber,
          carrier: props.carrier,
          time: intl.time(props.shippedAt),
          strong,
        })}
      </Text>
      <Text>{t.rich("orders.shipped.tracking", { tracking: props.trackingNumber, strong })}</Text>
      <Text style={{ marginBottom: 0 }}>{t("orders.shipped.items")}</Text>
      <ParcelItems items={props.items} intl={intl} />
      <StoreLink intl={intl} storeName={props.storeName} storeUrl={props.storeUrl} />
    </EmailLayout>
  );
}
