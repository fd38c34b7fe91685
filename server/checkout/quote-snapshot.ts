/**
 * The quote snapshot stored with a quote (quotes.snapshot): every line, option, tax line and total
 * as priced at quote time. Checkouts, the hosted page and orders read money from here only.
 */
import { toMoney } from "../core/money";
import { type PricedOption, type PricedParcel, priceParcel } from "../core/parcel-pricing";
import type { Province } from "../core/provinces";
import { addTotals, toWireTotals, type Totals } from "../core/totals";
import { AppError } from "../core/errors";
import { absolute as absoluteUrl } from "../catalogue";
import type { TQuote, TShippingAddress, unavailableReasons } from "./checkout.schema";

export type SnapshotLine = {
  itemId: number;
  variantId: number;
  title: string;
  size: string | null;
  color: string | null;
  /** The item's condition as listed (new_with_tags ... fair); absent in quotes made before issue 27. */
  condition?: string | null;
  quantity: number;
  unitPriceCents: number;
  imageUrl: string | null;
  url: string;
};

export type SnapshotStore = {
  storeId: number;
  slug: string;
  name: string;
  url: string;
  agentCheckout: "link" | "direct";
  lines: SnapshotLine[];
  parcel: PricedParcel;
};

export type UnavailableLine = {
  itemId: number;
  size: string | null;
  quantity: number;
  reason: (typeof unavailableReasons)[number];
};

export type QuoteSnapshot = {
  destination: Province;
  stores: SnapshotStore[];
  unavailable: UnavailableLine[];
};

/** Store slug -> chosen option key. */
export type Selections = Record<string, string>;

/** The chosen option of a store (its default, the cheapest, when none was chosen). */
export const chosenOption = (store: SnapshotStore, selections: Selections): PricedOption =>
  store.parcel.options.find(
    (option) => option.key === (selections[store.slug] ?? store.parcel.defaultOptionKey),
  )!;

/** Checks a partner's or person's selections against the snapshot: 422 naming each unknown slug or key. */
export const resolveSelections = (
  snapshot: QuoteSnapshot,
  requested: Record<string, string> | undefined,
): Selections => {
  const fields: Record<string, string> = {};
  const selections: Selections = {};
  for (const [slug, key] of Object.entries(requested ?? {})) {
    const store = snapshot.stores.find((candidate) => candidate.slug === slug);
    if (!store) fields[`shipping_selections.${slug}`] = "is not a store of this quote";
    else if (!store.parcel.options.some((option) => option.key === key)) {
      fields[`shipping_selections.${slug}`] =
        `is not a shipping option of this store (${store.parcel.options.map((option) => option.key).join(", ")})`;
    } else selections[slug] = key;
  }
  if (Object.keys(fields).length) throw new AppError("invalid_request", { fields });
  for (const store of snapshot.stores) selections[store.slug] ??= store.parcel.defaultOptionKey;
  return selections;
};

/**
 * The snapshot of one line from one store, priced for `destination` as a quote prices it (the
 * store's rates, its free-shipping threshold, the province's tax): for callers that make a
 * purchase without a quote request (the sandbox ops command, test factories).
 */
export const oneLineSnapshot = (input: {
  store: Omit<SnapshotStore, "lines" | "parcel"> & { freeShippingThresholdCents: number | null };
  line: SnapshotLine;
  rates: Parameters<typeof priceParcel>[0]["rates"];
  destination: Province;
  now: Date;
}): QuoteSnapshot => {
  const { freeShippingThresholdCents, ...store } = input.store;
  const parcel = priceParcel({
    lines: [input.line],
    rates: input.rates,
    freeShippingThresholdCents,
    destination: input.destination,
    now: input.now,
  });
  return {
    destination: input.destination,
    stores: [{ ...store, lines: [input.line], parcel }],
    unavailable: [],
  };
};

/** Overall totals for the chosen options. */
export const snapshotTotals = (snapshot: QuoteSnapshot, selections: Selections): Totals =>
  addTotals(snapshot.stores.map((store) => chosenOption(store, selections).totals));

const toWireOption = (option: PricedOption) => ({
  key: option.key,
  label: option.label,
  amount: toMoney(option.amountCents),
  free: option.isFree,
  cheapest: option.isCheapest,
  delivery_estimate: {
    min_days: option.delivery.minDays,
    max_days: option.delivery.maxDays,
    earliest: option.delivery.earliest,
    latest: option.delivery.latest,
  },
  totals: toWireTotals(option.totals),
});

export const toWireTaxLines = (lines: PricedOption["taxLines"]) =>
  lines.map((line) => ({
    name: line.name,
    jurisdiction: line.jurisdiction,
    rate: line.rate,
    amount: toMoney(line.amountCents),
  }));

/** One store of the snapshot in the wire shape, with the chosen option's tax lines and totals. */
export const toWireStore = (store: SnapshotStore, selections: Selections) => {
  const chosen = chosenOption(store, selections);
  const offer = store.parcel.freeShipping;
  return {
    store: {
      slug: store.slug,
      name: store.name,
      url: store.url,
      agent_checkout: store.agentCheckout,
    },
    items: store.lines.map((line) => ({
      item_id: line.itemId,
      title: line.title,
      size: line.size,
      color: line.color,
      quantity: line.quantity,
      unit_price: toMoney(line.unitPriceCents),
      line_total: toMoney(line.unitPriceCents * line.quantity),
      image: line.imageUrl ? absoluteUrl(line.imageUrl) : null,
      url: line.url,
    })),
    shipping_options: store.parcel.options.map(toWireOption),
    selected_shipping: chosen.key,
    free_shipping: offer
      ? {
          threshold: toMoney(offer.thresholdCents),
          qualifies: offer.qualifies,
          remaining: toMoney(offer.remainingCents),
        }
      : null,
    tax_lines: toWireTaxLines(chosen.taxLines),
    totals: toWireTotals(chosen.totals),
  };
};

export const toWireQuote = (quote: {
  id: string;
  expiresAt: Date;
  email: string | null;
  address: TShippingAddress;
  snapshot: QuoteSnapshot;
}): TQuote => ({
  quote_id: quote.id,
  expires_at: quote.expiresAt.toISOString(),
  email: quote.email,
  shipping_address: quote.address,
  stores: quote.snapshot.stores.map((store) => toWireStore(store, {})),
  unavailable_items: quote.snapshot.unavailable.map((line) => ({
    item_id: line.itemId,
    size: line.size,
    quantity: line.quantity,
    reason: line.reason,
  })),
  totals: toWireTotals(snapshotTotals(quote.snapshot, {})),
});
