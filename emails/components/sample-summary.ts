/** What was bought in the sample props (`previewProps`) of the purchase emails: one coat from one store, to Toronto. */
import type { OrderSummary } from "../../server/core/order-summary";

/** One store, so the order's totals are the store's. */
const totals: OrderSummary["totals"] = {
  itemsCents: 12_800,
  discountCents: 0,
  shippingCents: 1_095,
  taxCents: 1_806,
  totalCents: 15_701,
};

export const sampleSummary: OrderSummary = {
  orderNumber: "SO-7K3M9QX2",
  shipTo: ["Ana Tremblay", "100 Queen St W", "Toronto ON M5H 2N2"],
  totals,
  stores: [
    {
      storeName: "Maison Friperie",
      storeUrl: "https://maison-friperie.example.ca",
      orderNumber: "SO-7K3M9QX2-1",
      items: [
        {
          title: "Wool overcoat, charcoal",
          size: "M",
          condition: "excellent",
          quantity: 1,
          imageUrl: "http://localhost:3000/images/items/1/1.svg",
          url: "https://maison-friperie.example.ca/products/wool-overcoat",
          lineCents: 12_800,
        },
      ],
      shipping: {
        label: "Canada Post Expedited",
        cents: 1_095,
        earliest: "2026-12-01",
        latest: "2026-12-03",
      },
      taxLines: [{ name: "HST", rate: "13%", cents: 1_806 }],
      totals,
    },
  ],
};
