/** What was bought (server/core/order-summary.ts), from a quote's snapshot and the chosen shipping. */
import type { OrderSummary, StoreSummary } from "../core/order-summary";
import { addTotals } from "../core/totals";
import { absolute as absoluteUrl } from "../catalogue";
import type { TShippingAddress } from "./checkout.schema";
import { chosenOption, type QuoteSnapshot, type Selections } from "./quote-snapshot";
import { storeOrderNumber } from "./store-orders";

export const addressLines = (address: TShippingAddress) =>
  [
    address.name,
    address.line1,
    address.line2,
    `${address.city} ${address.province} ${address.postal_code}`,
  ].filter((line): line is string => Boolean(line));

const toSummaryTotals = (totals: ReturnType<typeof addTotals>): StoreSummary["totals"] => ({
  itemsCents: totals.subtotalCents,
  discountCents: totals.discountCents,
  shippingCents: totals.shippingCents,
  taxCents: totals.taxCents,
  totalCents: totals.grandTotalCents,
});

/** The summary of a quote with the chosen shipping (each store's default where none was chosen). */
export const orderSummary = (input: {
  snapshot: QuoteSnapshot;
  selections: Selections;
  address: TShippingAddress;
  orderNumber: string | null;
}): OrderSummary => {
  const stores = input.snapshot.stores.map((store, index): StoreSummary => {
    const option = chosenOption(store, input.selections);
    return {
      storeName: store.name,
      storeUrl: store.url,
      orderNumber: input.orderNumber ? storeOrderNumber(input.orderNumber, index) : null,
      items: store.lines.map((line) => ({
        title: line.title,
        size: line.size,
        condition: line.condition ?? null,
        quantity: line.quantity,
        // Absolute: an email's reader has no page to resolve "/images/…" against.
        imageUrl: line.imageUrl ? absoluteUrl(line.imageUrl) : null,
        url: line.url,
        lineCents: line.unitPriceCents * line.quantity,
      })),
      shipping: {
        label: option.label,
        cents: option.amountCents,
        earliest: option.delivery.earliest,
        latest: option.delivery.latest,
      },
      taxLines: option.taxLines.map((line) => ({
        name: line.name,
        rate: line.rate,
        cents: line.amountCents,
      })),
      totals: toSummaryTotals(option.totals),
    };
  });
  return {
    orderNumber: input.orderNumber,
    stores,
    shipTo: addressLines(input.address),
    totals: toSummaryTotals(
      addTotals(input.snapshot.stores.map((store) => chosenOption(store, input.selections).totals)),
    ),
  };
};
