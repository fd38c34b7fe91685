/**
 * POST /checkout/quotes: prices items from one or more stores for a Canadian address, with live
 * shipping options, tax lines and totals per store, and stores the priced snapshot. Unavailable
 * items are listed rather than failing the quote, unless nothing can be bought (409 nothing_to_buy).
 */
import { randomId } from "../core/ids";
import { formatCents, maxOrderTotalCents } from "../core/money";
import { largestGrandTotalCents, type PricedParcel, priceParcel } from "../core/parcel-pricing";
import { loadQuotableItems } from "../catalogue";
import { poolSql } from "../platform/sql";
import type { z } from "zod";
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import { ZCreateQuoteRequest, ZQuote } from "./checkout.schema";
import { ownerOf } from "./ownership";
import { buildQuoteLines } from "./quote-lines";
import { type QuoteSnapshot, toWireQuote } from "./quote-snapshot";
import { insertQuote } from "./store/quotes";

/** How long a quote can be turned into a checkout; prices and stock are live, so keep it short. */
const quoteLifetimeMs = 30 * 60_000;

type QuoteOwner = ReturnType<typeof ownerOf>;

/**
 * Prices and stores a quote for `owner`: the use case behind the procedure, also called by the
 * price-watch evaluator as the watch's assistant (server/price-watches/evaluate-watch.ts). Raw SQL
 * on the pool (server/platform/sql.ts): a read and an insert, the whole of a quote's database work.
 */
export const quoteItems = async (
  owner: QuoteOwner,
  input: z.output<typeof ZCreateQuoteRequest>,
  now: Date,
) => {
  const snapshot = await priceItems(input, now);
  const quote = {
    id: randomId("quo_"),
    expiresAt: new Date(now.getTime() + quoteLifetimeMs),
    email: input.email?.toLowerCase() ?? null,
  };
  await insertQuote(poolSql, {
    ...quote,
    clientId: owner.clientId,
    personId: owner.personId,
    address: input.shipping_address,
    snapshot,
    createdAt: now,
  });
  return { ...quote, address: input.shipping_address, snapshot };
};

/**
 * Prices the items for the address as a quote does, without storing anything (the price-watch
 * preview's total, POST /price-watches/preview): the snapshot, or nothing_to_buy.
 */
export const priceItems = async (
  input: z.output<typeof ZCreateQuoteRequest>,
  now: Date,
): Promise<QuoteSnapshot> => {
  const destination = input.shipping_address.province;
  const items = await loadQuotableItems(poolSql, [
    ...new Set(input.items.map((line) => line.item_id)),
  ]);
  const { groups, unavailable } = buildQuoteLines(input.items, items);
  const unavailableItems = unavailable.map((line) => ({
    item_id: line.itemId,
    size: line.size,
    quantity: line.quantity,
    reason: line.reason,
  }));
  if (groups.length === 0) {
    throw new AppError("nothing_to_buy", {
      message: "None of the requested items can be bought now.",
      details: { unavailable_items: unavailableItems },
    });
  }
  const stores = groups.map(({ store, lines }) => ({
    storeId: store.id,
    slug: store.slug,
    name: store.name,
    url: store.url,
    agentCheckout: store.agentCheckout,
    lines,
    parcel: priceParcel({
      lines,
      rates: store.shippingRates,
      freeShippingThresholdCents: store.freeShippingThresholdCents,
      destination,
      now,
    }),
  }));
  refuseOverOrderTotal(stores.map((store) => store.parcel));
  return { destination, unavailable, stores };
};

/**
 * The one place an order's total is bounded (core/money.ts maxOrderTotalCents): a quote that could
 * total more, with any shipping choice, is a 422 naming `items`, before anything is stored. Every
 * total written later (checkout, purchase, store order, ledger) comes from a quote, so it fits.
 */
const refuseOverOrderTotal = (parcels: readonly PricedParcel[]) => {
  const largest = largestGrandTotalCents(parcels);
  if (largest <= maxOrderTotalCents) return;
  throw new AppError("invalid_request", {
    message: `One order may total at most ${formatCents(maxOrderTotalCents)} CAD; quote fewer items.`,
    fields: {
      items: `must total at most ${formatCents(maxOrderTotalCents)} with shipping and tax (these come to ${formatCents(largest)})`,
    },
  });
};

export const createQuote = procedure({ caller: "partner", scope: "checkout:write" })
  .input(ZCreateQuoteRequest)
  .output(ZQuote)
  .mutation(async ({ ctx, input }) =>
    toWireQuote(await quoteItems(ownerOf(ctx.actor), input, ctx.clock.now())),
  );
