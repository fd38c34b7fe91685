/**
 * POST /price-watches/preview (priceWatches.preview, 1.9.0): the watch body, answered with whether
 * the watch, set now, would buy at once (`would_buy_now`) and every condition with its values, in
 * the fixed order of conditions.ts: the very rules the evaluator checks, so the preview cannot
 * disagree with it. It writes nothing: the total is priced as a quote prices it (checkout's
 * `priceItems`) without storing a quote. What POST /price-watches refuses with a 409 (the 25-watch
 * limit, already_watching, the store, the person's limits, card and address, size_required) is a
 * failed condition here; what it answers 404, 403 or 422 is answered the same.
 */
import { AppError } from "../core/errors";
import { parseCents, toMoney } from "../core/money";
import { procedure } from "../platform/trpc/procedures";
import type { Context } from "../platform/trpc/context";
import { requirePersonGrant } from "../platform/trpc/admission";
import { poolSql } from "../platform/sql";
import { readSavedCard, readSpendingSettings, toShippingAddress } from "../accounts";
import { priceItems, type QuotableItem, snapshotTotals, ZCreateQuoteRequest } from "../checkout";
import { readPriceHistory } from "../catalogue";
import { purchasingAgent, spendingRoom } from "../purchases";
import { firstFailed, isForSaleInSize, type WatchFacts, watchConditions } from "./conditions";
import { checkTotalCoversPrice, targetCents } from "./drop-percent";
import { findWatchableItem, readBuyer, watchedVariant } from "./create-price-watch";
import { standingFacts } from "./policy";
import {
  type TCreatePriceWatchBody,
  type TPriceWatchPreview,
  ZCreatePriceWatchBody,
  ZPriceWatchPreview,
} from "./price-watch.schema";
import { findLiveWatches } from "./store/watches";

type Ctx = Pick<Context, "db" | "actor">;
type Buyer = Awaited<ReturnType<typeof readBuyer>>;

/** Whether purchases are on for the token's assistant (purchasingAgent's rule, as a fact). */
const assistantMayBuy = async (ctx: Ctx) => {
  try {
    await purchasingAgent(ctx.db, ctx.actor, { status: 409 });
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === "agent_purchases_unavailable") return false;
    throw error;
  }
};

/** The watched size (chooseSize's rule), or size_required as a fact rather than a refusal. */
const chosenVariant = (item: QuotableItem, size: string | undefined, buyer: Buyer) => {
  try {
    return watchedVariant(item, size, buyer.sizes);
  } catch (error) {
    if (error instanceof AppError && error.code === "size_required") return null;
    throw error;
  }
};

/** The total of the item in that size to the saved address, priced as a quote is (nothing stored); null when it cannot be priced. */
const totalToSavedAddress = async (
  item: QuotableItem,
  size: string | null,
  address: NonNullable<Buyer["shippingAddress"]>,
  now: Date,
) => {
  try {
    const input = ZCreateQuoteRequest.parse({
      items: [{ item_id: item.id, size: size ?? undefined, quantity: 1 }],
      shipping_address: toShippingAddress(address),
    });
    return snapshotTotals(await priceItems(input, now), {}).grandTotalCents;
  } catch (error) {
    if (error instanceof AppError && ["nothing_to_buy", "invalid_request"].includes(error.code))
      return null;
    throw error;
  }
};

/** The person's spending facts: the pause, the per-order limit and what the 30-day limit has left (null: not set). */
const spendingFacts = async (ctx: Ctx, personId: string, hasGrant: boolean, now: Date) => {
  const settings = await readSpendingSettings(ctx.db, personId);
  const facts = standingFacts({ hasGrant, settings });
  if (facts.perOrderLimitCents === null) return { ...facts, room30DaysCents: null };
  const room = await spendingRoom(poolSql, {
    personId,
    perOrderCents: settings!.limitPerOrderCents!,
    per30DaysCents: settings!.limitPer30DaysCents!,
    now,
  });
  return { ...facts, room30DaysCents: room.room30DaysCents };
};

/** The person's live watches: how many, and the one on this item (null: none). */
const liveWatchFacts = async (ctx: Ctx, personId: string, itemId: number) => {
  const live = await findLiveWatches(ctx.db, personId);
  return {
    count: live.length,
    onThisItem: live.find((watch) => watch.itemId === itemId)?.id ?? null,
  };
};

/** The warning when max_price is below the item's lowest price of the last 90 days (it may never come). */
const belowLowWarning = async (itemId: number, maxPriceCents: number, now: Date) => {
  const history = await readPriceHistory(poolSql, itemId, now);
  if (!history || maxPriceCents >= history.lowest90Cents) return [];
  return [
    {
      code: "max_price_below_90_day_low" as const,
      message:
        "max_price is below the item's lowest price of the last 90 days: the watch may never buy.",
      lowest_90_days: toMoney(history.lowest90Cents),
    },
  ];
};

/** The preview's steps: the item, the person, the facts, the conditions. */
export const previewWatch = async (
  ctx: Ctx,
  input: TCreatePriceWatchBody,
  now: Date,
): Promise<TPriceWatchPreview> => {
  const { personId } = requirePersonGrant(ctx.actor, "purchase:write");
  const item = await findWatchableItem(ctx.db, input.catalog_item_id);
  const maxTotalCents = parseCents(input.max_total);
  const maxPriceCents = targetCents(
    { price: input.max_price, dropPercent: input.drop_percent },
    item.priceCents,
  );
  checkTotalCoversPrice(maxTotalCents, maxPriceCents);
  const buyer = await readBuyer(ctx.db, personId);
  const variant = chosenVariant(item, input.size, buyer);
  const isAvailable = isForSaleInSize(item, variant);
  const hasGrant = await assistantMayBuy(ctx);
  const facts: WatchFacts = {
    itemAvailable: isAvailable,
    sizeChosen: variant !== null,
    priceCents: item.priceCents,
    maxPriceCents,
    maxTotalCents,
    totalCents:
      buyer.shippingAddress && variant && isAvailable
        ? await totalToSavedAddress(item, variant.size, buyer.shippingAddress, now)
        : null,
    ...(await spendingFacts(ctx, personId, hasGrant, now)),
    agentCheckout: item.store.agentCheckout,
    province: buyer.shippingAddress?.province ?? null,
    hasSavedCard: Boolean(await readSavedCard(ctx.db, personId)),
    liveWatches: await liveWatchFacts(ctx, personId, item.id),
  };
  const conditions = watchConditions(facts);
  return {
    would_buy_now: firstFailed(conditions) === null,
    catalog_item_id: String(item.id),
    size: variant?.size ?? null,
    current_price: toMoney(item.priceCents),
    max_price: toMoney(maxPriceCents),
    drop_percent: input.drop_percent ?? null,
    max_total: toMoney(maxTotalCents),
    conditions,
    warnings: await belowLowWarning(item.id, maxPriceCents, now),
  };
};

export const previewPriceWatch = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZCreatePriceWatchBody)
  .output(ZPriceWatchPreview)
  .mutation(({ ctx, input }) => previewWatch(ctx, input, ctx.clock.now()));
