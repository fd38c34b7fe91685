/**
 * POST /sandbox/items (sandbox only): lists a new item in a store, as a store's feed would, through
 * the catalogue's listItems (the item, its variants and its `listed` catalogue event in one
 * transaction), so partners can see search watches react to a new listing. Any client token of
 * the sandbox may use it (catalog:read): sandbox items are test data shared by every partner.
 */
import { parseCents, toMoney } from "../core/money";
import { listItems } from "../catalogue";
import { procedure } from "../platform/trpc/procedures";
import { assertSandbox } from "./sandbox-only";
import { ZListedItem, ZListItemBody } from "./sandbox.schema";

export const listItemNow = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZListItemBody)
  .output(ZListedItem)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const priceCents = parseCents(input.price);
    const { itemIds } = await listItems(
      input.store,
      [
        {
          title: input.title,
          brand: input.brand ?? null,
          description: input.description ?? "",
          categoryPath: input.category ?? null,
          priceCents,
          condition: input.condition ?? null,
          sizes: input.sizes ?? [],
          color: input.color ?? null,
          quantity: input.quantity ?? 1,
        },
      ],
      { now: ctx.clock.now() },
    );
    return { catalog_item_id: String(itemIds[0]), price: toMoney(priceCents) };
  });
