/**
 * Sent to the checkout email when a checkout is paid: the order number, each store's order with its
 * items (title, size as listed, condition, picture), shipping, tax lines and totals, and the ship-to
 * address, in the buyer's language (the one they paid in) and the zone of the province it ships to.
 */
import { Text } from "@react-email/text";
import type { OrderSummary } from "../server/core/order-summary";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout } from "./components/layout";
import { StoreLink } from "./components/store-link";
import { WhatWasBought } from "./components/what-was-bought";

export type OrderConfirmationProps = Localised & {
  firstName: string | null;
  orderNumber: string;
  /** When the checkout was paid (ISO). */
  paidAt: string;
  summary: OrderSummary;
};

export const previewProps: OrderConfirmationProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  firstName: "Ana",
  orderNumber: "SO-7K3M9QX2",
  paidAt: "2026-11-27T16:05:00.000Z",
  summary: {
    orderNumber: "SO-7K3M9QX2",
    stores: [
      {
        storeName: "Maple & Thread",
        storeUrl: "https://maple-and-thread.example.ca",
        orderNumber: "SO-7K3M9QX2-1",
        items: [
          {
            title: "Wool coat",
            size: "M",
            condition: "excellent",
            quantity: 1,
            imageUrl: "https://shopping-api.example.ca/images/items/wool-coat.jpg",
            url: "https://maple-and-thread.example.ca/items/wool-coat",
            lineCents: 129_000,
          },
        ],
        shipping: {
          label: "Canada Post Regular Parcel",
          cents: 995,
          earliest: "2026-12-01",
          latest: "2026-12-04",
        },
        taxLines: [{ name: "HST", rate: "13%", cents: 16_899 }],
        totals: {
          itemsCents: 129_000,
          discountCents: 0,
          shippingCents: 995,
          taxCents: 16_899,
          totalCents: 146_894,
        },
      },
    ],
    shipTo: ["Ana Tremblay", "100 Queen St W", "Toronto ON M5H 2N2"],
    totals: {
      itemsCents: 129_000,
      discountCents: 0,
      shippingCents: 995,
      taxCents: 16_899,
      totalCents: 146_894,
    },
  },
};

export const subject = (props: OrderConfirmationProps) =>
  emailIntl(props).t("orders.confirmation.subject", { number: props.orderNumber });

export default function OrderConfirmation(props: OrderConfirmationProps) {
  const intl = emailIntl(props);
  const { t } = intl;
  const { firstName, orderNumber, summary } = props;
  return (
    <EmailLayout
      intl={intl}
      showsTimes
      preview={t("orders.confirmation.preview", {
        number: orderNumber,
        stores: summary.stores.length,
        total: intl.money(summary.totals.totalCents),
      })}
      heading={
        firstName
          ? t("orders.confirmation.heading", { firstName })
          : t("orders.confirmation.headingNoName")
      }
      footer={t("orders.email.footer")}
    >
      <Text>
        {t.rich("orders.confirmation.intro", {
          number: orderNumber,
          strong: (chunks) => <strong>{chunks}</strong>,
        })}
      </Text>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>
        {t("orders.confirmation.paid", { time: intl.time(props.paidAt) })}
      </Text>
      <WhatWasBought summary={summary} intl={intl} />
      {summary.stores.map((store) => (
        <StoreLink
          key={store.storeUrl}
          intl={intl}
          storeName={store.storeName}
          storeUrl={store.storeUrl}
          compact
        />
      ))}
    </EmailLayout>
  );
}
