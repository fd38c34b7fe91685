/**
 * POST /price-watches (priceWatches.create): an assistant sets a standing order for the person,
 * under the same rules as POST /purchases (the agent, its switch, a direct store, the person's
 * limits, pause, saved card and address, outside Quebec), every refusal a 409 with nothing set.
 * What depends on the person's other watches and purchases (already_watching, the 25 live
 * watches, the 30-day room) is checked under the person's row lock in the transaction that writes
 * the watch, so two concurrent requests cannot both pass. The set email (with the watch's cancel
 * link) is written in the same transaction.
 */
import { maxLiveWatches, watchDays } from "./states";
import { liveWatchRefusal } from "./policy";
import { parseCents, toMoney } from "../core/money";
import { AppError } from "../core/errors";
import { notifyPriceWatchSet } from "../platform/jobs/events";
import { purchasingAgent } from "../purchases";
import { overSpendingLimit, spendingRoom, standingOrderBuyer } from "../purchases";
import { writeWatchSetEmail } from "./watch-emails";
import { procedure } from "../platform/trpc/procedures";
import { findProfile, findShippingAddress, lockPerson } from "../accounts";
import { loadQuotableItems } from "../checkout";
import { availableVariant, chooseSize } from "../core/sizes";
import type { QuotableItem } from "../checkout";
import { ZCreatePriceWatchBody, ZPriceWatch } from "./price-watch.schema";
import { toWirePriceWatch, withItem } from "./price-watch-view";
import { type Db, inTransaction, type Tx } from "../platform/db";
import { findLiveWatches, insertWatch } from "./store/watches";
import { checkTotalCoversPrice, targetCents } from "./drop-percent";
import { firstFailed, isForSaleInSize, watchConditions } from "./conditions";

const dayMs = 24 * 3_600_000;
/** Every refusal of POST /price-watches is a 409 (DESIGN.md), also for codes POST /purchases answers with 403. */
export const refuse = (
  code: ConstructorParameters<typeof AppError>[0],
  message: string,
  details?: Record<string, unknown>,
) => new AppError(code, { message, details, status: 409 });

/**
 * The variant the watch is for (the sizes' one rule, chooseSize: spellings of one size are one size,
 * the person's saved sizes choose when the body names none); the watch keeps the size as listed,
 * and buys whichever spelling of it is available when it buys (the quote's pickVariant, same rule).
 */
export const watchedVariant = (
  item: Pick<QuotableItem, "id" | "variants">,
  size: string | undefined,
  savedSizes: readonly string[],
) => {
  const choice = chooseSize(item.variants, { size, savedSizes });
  if ("notASize" in choice)
    throw new AppError("invalid_request", {
      fields: { size: `is not a size of item ${item.id} (${choice.notASize})` },
    });
  if ("required" in choice) {
    throw new AppError("size_required", {
      message: `Item ${item.id} comes in ${choice.required}, and the person's saved sizes name none or several of them: pass size. No watch was set.`,
    });
  }
  return availableVariant(choice.variants, 1);
};

/** The item the body names, as a quote reads it; not_found when there is none or it was removed. */
export const findWatchableItem = async (db: Db, catalogItemId: string) => {
  const [item] = await loadQuotableItems(db, [Number(catalogItemId)]);
  if (!item || item.status === "removed")
    throw new AppError("not_found", { message: `No item ${catalogItemId}.` });
  return item;
};

/** The person's email, saved sizes and saved address (null without one). */
export const readBuyer = async (db: Db, personId: string) => {
  const [person, shippingAddress] = await Promise.all([
    findProfile(db, personId),
    findShippingAddress(db, personId),
  ]);
  if (!person) throw new Error(`person ${personId} not found`);
  return { email: person.email, sizes: person.sizes, shippingAddress };
};

/**
 * Refuses an item the watch could never buy now: the conditions' `item_available` (sold, its store
 * not selling, the size out of stock) and `agent_checkout` (its store sells only through a link).
 */
export const refuseUnsellable = (item: QuotableItem, variant: { quantity: number }) => {
  const failed = firstFailed(
    watchConditions({
      itemAvailable: isForSaleInSize(item, variant),
      agentCheckout: item.store.agentCheckout,
      maxTotalCents: 0,
    }),
  );
  if (failed === "item_available")
    throw refuse("item_unavailable", "The item is not for sale now; no watch was set.");
  if (failed === "agent_checkout")
    throw refuse(
      "store_requires_checkout_link",
      "The item's store sells only through a checkout link; no watch was set.",
      { stores: [item.store.slug] },
    );
};

/**
 * A watch is for a price to come: an item whose price already meets the conditions' `max_price` is
 * bought now instead.
 */
export const refuseAtPrice = (item: QuotableItem, maxPriceCents: number) => {
  const isAtPrice =
    firstFailed(
      watchConditions({ priceCents: item.priceCents, maxPriceCents, maxTotalCents: 0 }),
    ) === null;
  if (isAtPrice)
    throw refuse(
      "already_at_price",
      "The item is already at or under max_price: buy it now instead (POST /checkout/quotes, then POST /purchases).",
      { current_price: toMoney(item.priceCents) },
    );
};

type NewWatch = {
  personId: string;
  clientId: string;
  assistant: string;
  email: string;
  item: QuotableItem;
  size: string | null;
  maxPriceCents: number;
  maxTotalCents: number;
  dropPercent: number | null;
  expiresAt: Date;
  settings: { limitPerOrderCents: number | null; limitPer30DaysCents: number | null };
  now: Date;
};

/**
 * Takes the person's row lock (accounts': the one a purchase and a change of limits take too) and
 * makes the checks that depend on the person's other watches and purchases: one live watch per item,
 * the 25 live watches (an any-of group counting once), max_total within the limits and the 30-day
 * room. POST /price-watches and POST /price-watch-groups (every item of the group) alike.
 */
export const refuseUnderLock = async (
  tx: Tx,
  watch: Pick<NewWatch, "personId" | "maxTotalCents" | "settings" | "now"> & {
    itemIds: readonly number[];
  },
) => {
  const { personId, maxTotalCents, now } = watch;
  await lockPerson(tx, personId);
  const live = await findLiveWatches(tx, personId);
  for (const itemId of watch.itemIds) refuseLiveWatch(liveWatchRefusal(live, itemId));
  const room = await spendingRoom(tx, {
    personId,
    perOrderCents: watch.settings.limitPerOrderCents!,
    per30DaysCents: watch.settings.limitPer30DaysCents!,
    now,
  });
  const over = overSpendingLimit(maxTotalCents, room);
  if (over)
    throw refuse(
      "over_spending_limit",
      `max_total is over the person's spending limits (${over.limitCents === room.perOrderCents && maxTotalCents > room.perOrderCents ? "per order" : "what the 30-day limit has left"}); no watch was set.`,
      { limit: toMoney(over.limitCents), room: toMoney(over.roomCents) },
    );
};

const refuseLiveWatch = (refusal: ReturnType<typeof liveWatchRefusal>) => {
  if (refusal?.code === "already_watching")
    throw refuse(
      "already_watching",
      "The person already has a live watch on this item; cancel it to set another.",
      { price_watch_id: refusal.priceWatchId },
    );
  if (refusal?.code === "too_many_watches")
    throw refuse(
      "too_many_watches",
      `A person may have at most ${maxLiveWatches} live price watches.`,
      { limit: maxLiveWatches },
    );
};

/**
 * Under the person's row lock (refuseUnderLock): the checks that depend on the person's other
 * watches and purchases, then the watch and its set email.
 */
const writeWatch = async (tx: Tx, watch: NewWatch) => {
  const { personId, maxTotalCents, now } = watch;
  await refuseUnderLock(tx, { ...watch, itemIds: [watch.item.id] });
  const created = await insertWatch(tx, {
    personId,
    clientId: watch.clientId,
    itemId: watch.item.id,
    size: watch.size,
    maxPriceCents: watch.maxPriceCents,
    maxTotalCents,
    dropPercent: watch.dropPercent,
    expiresAt: watch.expiresAt,
    now,
  });
  await writeWatchSetEmail(tx, { ...created, email: watch.email, personId }, watch.assistant);
  return created;
};

export const createPriceWatch = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZCreatePriceWatchBody)
  .output(ZPriceWatch)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const maxTotalCents = parseCents(input.max_total);
    const agent = await purchasingAgent(ctx.db, ctx.actor, { status: 409 });
    const item = await findWatchableItem(ctx.db, input.catalog_item_id);
    // max_price, or the price drop_percent makes from the price now (drop-percent.ts).
    const maxPriceCents = targetCents(
      { price: input.max_price, dropPercent: input.drop_percent },
      item.priceCents,
    );
    checkTotalCoversPrice(maxTotalCents, maxPriceCents);
    const buyer = await readBuyer(ctx.db, agent.personId);
    const variant = watchedVariant(item, input.size, buyer.sizes);
    refuseUnsellable(item, variant);
    const { settings } = await standingOrderBuyer(ctx.db, agent.personId);
    refuseAtPrice(item, maxPriceCents);
    const watch = await inTransaction(ctx.db, (tx) =>
      writeWatch(tx, {
        ...agent,
        email: buyer.email,
        item,
        size: variant.size,
        maxPriceCents,
        maxTotalCents,
        dropPercent: input.drop_percent ?? null,
        expiresAt: new Date(now.getTime() + (input.days ?? watchDays.default) * dayMs),
        settings,
        now,
      }),
    );
    notifyPriceWatchSet(watch.id);
    return toWirePriceWatch(await withItem(ctx.db, watch));
  });
