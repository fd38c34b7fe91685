/**
 * POST /sandbox/items/{item_id}/price {"price": "12.34"} (sandbox only): changes an item's price
 * as a store edit would, through setItemPrice (the price and its durable price-change event in one
 * transaction), so partners can watch price watches and alerts react. Any client token of the
 * sandbox may use it (catalog:read): sandbox items are test data shared by every partner.
 */
import { parseCents, toMoney } from "../core/money";
import { setItemPrice } from "../catalogue";
import { procedure } from "../platform/trpc/procedures";
import { assertSandbox } from "./sandbox-only";
import { ZItemPriceChange, ZSetItemPriceInput } from "./sandbox.schema";

export const setItemPriceNow = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZSetItemPriceInput)
  .output(ZItemPriceChange)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const change = await setItemPrice(
      ctx.db,
      { itemId: input.item_id, priceCents: parseCents(input.price) },
      { now: ctx.clock.now() },
    );
    return {
      catalog_item_id: String(change.itemId),
      old_price: toMoney(change.oldPriceCents),
      price: toMoney(change.newPriceCents),
      changed: change.eventId !== null,
    };
  });
