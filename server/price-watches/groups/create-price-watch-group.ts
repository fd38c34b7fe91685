/**
 * POST /price-watch-groups (priceWatchGroups.create): an any-of watch (issue 29 §4, ADR 0118): 1 to
 * 10 alternatives (items, optionally a size and a price of their own) under one max_total and one
 * expiry; the first that qualifies buys, the others end. Each alternative passes POST
 * /price-watches' own checks (create-price-watch.ts: the item, its size, its store direct, not
 * already at its price; one live watch per item), the person's are checked once (the agent and its
 * switch, limits and pause, address, Quebec, saved card; max_total within the limits and the room),
 * and the group counts as ONE of the 25 live watches (policy.ts liveWatchCount). Under the person's
 * row lock, in one transaction: the group, its alternatives (price_watches rows with group_id: they
 * count in price_watchers and the price-change handler evaluates them) and one set email.
 */
import { AppError } from "../../core/errors";
import { fieldName } from "../../core/zod-fields";
import type { QuotableItem } from "../../checkout";
import { parseCents } from "../../core/money";
import { randomId } from "../../core/ids";
import { inTransaction } from "../../platform/db";
import { notifyPriceWatchSet } from "../../platform/jobs/events";
import { procedure } from "../../platform/trpc/procedures";
import { purchasingAgent, standingOrderBuyer } from "../../purchases";
import {
  findWatchableItem,
  readBuyer,
  refuseAtPrice,
  refuseUnderLock,
  refuseUnsellable,
  watchedVariant,
} from "../create-price-watch";
import { watchDays } from "../states";
import { insertWatch } from "../store/watches";
import { writeGroupSetEmail } from "./group-emails";
import { ZCreatePriceWatchGroupBody, ZPriceWatchGroup } from "./price-watch-group.schema";
import { toWireGroup } from "./price-watch-group-view";
import { findPersonGroup, insertGroup } from "./store";

const dayMs = 24 * 3_600_000;

/** An invalid field of alternative `index` (its size), named as 422 fields name a list's element (`alternatives[0].size`), the message saying which. */
const atAlternative = <T>(index: number, check: () => T): T => {
  try {
    return check();
  } catch (error) {
    const fields = error instanceof AppError ? error.options.fields : undefined;
    if (fields)
      throw new AppError("invalid_request", {
        fields: Object.fromEntries(
          Object.entries(fields).map(([field, message]) => [
            fieldName(["alternatives", index, field]),
            `alternative ${index + 1}: ${message}`,
          ]),
        ),
      });
    throw error;
  }
};

export const createPriceWatchGroup = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZCreatePriceWatchGroupBody)
  .output(ZPriceWatchGroup)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const maxTotalCents = parseCents(input.max_total);
    const agent = await purchasingAgent(ctx.db, ctx.actor, { status: 409 });
    const buyer = await readBuyer(ctx.db, agent.personId);
    // Each alternative as POST /price-watches checks its item (in the body's order: the first refusal answers).
    const alternatives: { item: QuotableItem; size: string | null; maxPriceCents: number }[] = [];
    for (const [index, alternative] of input.alternatives.entries()) {
      const item = await findWatchableItem(ctx.db, alternative.catalog_item_id);
      const variant = atAlternative(index, () =>
        watchedVariant(item, alternative.size, buyer.sizes),
      );
      refuseUnsellable(item, variant);
      // Without a price of its own, the price condition is the total's: the price alone within max_total.
      const maxPriceCents =
        alternative.max_price === undefined ? maxTotalCents : parseCents(alternative.max_price);
      alternatives.push({ item, size: variant.size, maxPriceCents });
    }
    const { settings } = await standingOrderBuyer(ctx.db, agent.personId);
    for (const { item, maxPriceCents } of alternatives) refuseAtPrice(item, maxPriceCents);
    const expiresAt = new Date(now.getTime() + (input.days ?? watchDays.default) * dayMs);
    const { groupId, watchIds } = await inTransaction(ctx.db, async (tx) => {
      await refuseUnderLock(tx, {
        personId: agent.personId,
        maxTotalCents,
        settings,
        now,
        itemIds: alternatives.map(({ item }) => item.id),
      });
      const group = await insertGroup(tx, {
        id: randomId("pwg_"),
        personId: agent.personId,
        clientId: agent.clientId,
        maxTotalCents,
        expiresAt,
        now,
      });
      const ids: number[] = [];
      for (const alternative of alternatives) {
        const watch = await insertWatch(tx, {
          personId: agent.personId,
          clientId: agent.clientId,
          itemId: alternative.item.id,
          size: alternative.size,
          maxPriceCents: alternative.maxPriceCents,
          maxTotalCents,
          expiresAt,
          now,
          groupId: group.id,
        });
        ids.push(watch.id);
      }
      await writeGroupSetEmail(
        tx,
        {
          id: group.id,
          personId: agent.personId,
          email: buyer.email,
          maxTotalCents,
          expiresAt,
        },
        agent.assistant,
      );
      return { groupId: group.id, watchIds: ids };
    });
    // Each alternative's expiry timer expires the whole group (expireWatch).
    for (const id of watchIds) notifyPriceWatchSet(id);
    return toWireGroup(ctx.db, (await findPersonGroup(ctx.db, agent.personId, groupId))!);
  });
