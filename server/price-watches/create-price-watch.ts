/**
 * POST /price-watches (priceWatches.create): an assistant sets a standing order for the person,
 * under the same rules as POST /purchases (the agent, its switch, a direct store, the person's
 * limits, pause, saved card and address, outside Quebec), every refusal a 409 with nothing set.
 * What depends on the person's other watches and purchases (already_watching, the 25 live
 * watches, the 30-day room) is checked under the person's row lock in the transaction that writes
 * the watch, so two concurrent requests cannot both pass. The set email (with the watch's cancel
 * link) is written in the same transaction.
 */
import { maxLiveWatches, liveWatchStatuses, watchDays } from "./states";
import { parseCents, toMoney } from "../core/money";
import { storeCanSell } from "../core/store-can-sell";
import { AppError } from "../core/errors";
import { notifyPriceWatchSet } from "../platform/jobs/events";
import { purchasingAgent } from "../purchases";
import { overSpendingLimit, spendingRoom, spendingSettingsAllowingPurchase } from "../purchases";
import { writeWatchSetEmail } from "./watch-emails";
import { procedure } from "../platform/trpc/procedures";
import { readSavedCard } from "../accounts";
import { loadQuotableItems } from "../checkout";
import { availableVariant, chooseSize } from "../core/sizes";
import type { QuotableItem } from "../checkout";
import { ZCreatePriceWatchBody, ZPriceWatch } from "./price-watch.schema";
import { priceWatchSelect, toWirePriceWatch } from "./price-watch-view";

const dayMs = 24 * 3_600_000;
/** Every refusal of POST /price-watches is a 409 (DESIGN.md), also for codes POST /purchases answers with 403. */
const refuse = (
  code: ConstructorParameters<typeof AppError>[0],
  message: string,
  details?: Record<string, unknown>,
) => new AppError(code, { message, details, status: 409 });

/**
 * The variant the watch is for (the sizes' one rule, chooseSize: spellings of one size are one size,
 * the person's saved sizes choose when the body names none); the watch keeps the size as listed,
 * and buys whichever spelling of it is available when it buys (the quote's pickVariant, same rule).
 */
const watchedVariant = (
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

export const createPriceWatch = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZCreatePriceWatchBody)
  .output(ZPriceWatch)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const maxPriceCents = parseCents(input.max_price);
    const maxTotalCents = parseCents(input.max_total);
    const { personId, clientId, assistant } = await purchasingAgent(ctx.db, ctx.actor, {
      status: 409,
    });
    const itemId = Number(input.catalog_item_id);
    const [item] = await loadQuotableItems(ctx.db, [itemId]);
    if (!item || item.status === "removed")
      throw new AppError("not_found", { message: `No item ${input.catalog_item_id}.` });
    const person = await ctx.db.person.findUniqueOrThrow({
      where: { id: personId },
      select: { email: true, sizes: true, shippingAddress: { select: { province: true } } },
    });
    const variant = watchedVariant(item, input.size, person.sizes);
    if (item.status === "sold" || !storeCanSell(item.store) || variant.quantity < 1)
      throw refuse("item_unavailable", "The item is not for sale now; no watch was set.");
    if (item.store.agentCheckout !== "direct") {
      throw refuse(
        "store_requires_checkout_link",
        "The item's store sells only through a checkout link; no watch was set.",
        { stores: [item.store.slug] },
      );
    }
    const settings = await spendingSettingsAllowingPurchase(ctx.db, personId, { status: 409 });
    if (!person.shippingAddress)
      throw refuse(
        "address_not_on_file",
        "The person has no saved shipping address to deliver to.",
      );
    if (person.shippingAddress.province === "QC")
      throw refuse("not_available_in_market", "Assistant purchases do not deliver to Quebec.");
    if (!(await readSavedCard(ctx.db, personId)))
      throw refuse("no_saved_card", "The person has no saved card.");
    if (item.priceCents <= maxPriceCents) {
      throw refuse(
        "already_at_price",
        "The item is already at or under max_price: buy it now instead (POST /checkout/quotes, then POST /purchases).",
        { current_price: toMoney(item.priceCents) },
      );
    }
    const expiresAt = new Date(now.getTime() + (input.days ?? watchDays.default) * dayMs);

    const watch = await ctx.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM persons WHERE id = ${personId} FOR UPDATE`;
      const live = await tx.priceWatch.findMany({
        where: { personId, status: { in: [...liveWatchStatuses] } },
        select: { id: true, itemId: true },
      });
      const same = live.find((watched) => watched.itemId === itemId);
      if (same)
        throw refuse(
          "already_watching",
          "The person already has a live watch on this item; cancel it to set another.",
          { price_watch_id: same.id },
        );
      if (live.length >= maxLiveWatches)
        throw refuse(
          "too_many_watches",
          `A person may have at most ${maxLiveWatches} live price watches.`,
          { limit: maxLiveWatches },
        );
      const room = await spendingRoom(tx, {
        personId,
        perOrderCents: settings.limitPerOrderCents!,
        per30DaysCents: settings.limitPer30DaysCents!,
        now,
      });
      const over = overSpendingLimit(maxTotalCents, room);
      if (over)
        throw refuse(
          "over_spending_limit",
          `max_total is over the person's spending limits (${over.limitCents === room.perOrderCents && maxTotalCents > room.perOrderCents ? "per order" : "what the 30-day limit has left"}); no watch was set.`,
          { limit: toMoney(over.limitCents), room: toMoney(over.roomCents) },
        );
      const created = await tx.priceWatch.create({
        data: {
          personId,
          clientId,
          itemId,
          size: variant.size,
          maxPriceCents,
          maxTotalCents,
          expiresAt,
          createdAt: now,
          updatedAt: now,
        },
        select: priceWatchSelect,
      });
      await writeWatchSetEmail(
        tx,
        {
          id: created.id,
          email: person.email,
          title: item.title,
          maxPriceCents,
          maxTotalCents,
          expiresAt,
        },
        assistant,
      );
      return created;
    });
    notifyPriceWatchSet(watch.id);
    return toWirePriceWatch(watch);
  });
