/**
 * Turns the requested items into buyable lines grouped by store, or unavailable lines with a
 * reason. A size that is not the item's, or a missing size on an item in several (normalised) sizes, is the
 * caller's mistake (422 naming the field); anything sold, reserved or unlisted is unavailable.
 */
import { availableVariant, chooseSize } from "../core/sizes";
import { storeCanSell } from "../core/store-can-sell";
import { AppError } from "../core/errors";
import type { QuotableItem } from "../catalogue";
import type { SnapshotLine, UnavailableLine } from "./quote-snapshot";

type Requested = { item_id: number; size?: string; quantity: number };
export type BuyableGroup = { store: QuotableItem["store"]; lines: SnapshotLine[] };

/**
 * The variant a quote's line buys: the sizes' one rule (server/core/sizes.ts chooseSize; a quote
 * names its sizes, the person's saved sizes are a price watch's), the available spelling of the size.
 */
const pickVariant = (
  item: Pick<QuotableItem, "id" | "variants">,
  size: string | undefined,
  field: string,
  quantity = 1,
) => {
  const choice = chooseSize(item.variants, { size });
  if ("required" in choice)
    throw new AppError("invalid_request", {
      fields: { [field]: `is required: item ${item.id} comes in ${choice.required}` },
    });
  if ("notASize" in choice)
    throw new AppError("invalid_request", {
      fields: { [field]: `is not a size of item ${item.id} (${choice.notASize})` },
    });
  return availableVariant(choice.variants, quantity);
};

/** Same item and size asked twice counts once with the quantities added. */
const merge = (requested: readonly Requested[]) => {
  const merged = new Map<string, Requested & { index: number }>();
  requested.forEach((line, index) => {
    const key = `${line.item_id}:${line.size ?? ""}`;
    const existing = merged.get(key);
    if (existing) existing.quantity += line.quantity;
    else merged.set(key, { ...line, index });
  });
  return [...merged.values()];
};

export const buildQuoteLines = (
  requested: readonly Requested[],
  items: readonly QuotableItem[],
) => {
  const byId = new Map(items.map((item) => [item.id, item]));
  const groups = new Map<number, BuyableGroup>();
  const unavailable: UnavailableLine[] = [];
  for (const line of merge(requested)) {
    const item = byId.get(line.item_id);
    const miss = (reason: UnavailableLine["reason"]) =>
      unavailable.push({
        itemId: line.item_id,
        size: line.size ?? null,
        quantity: line.quantity,
        reason,
      });
    if (!item || item.status === "removed") {
      miss("not_found");
      continue;
    }
    const variant = pickVariant(item, line.size, `items[${line.index}].size`, line.quantity);
    if (item.status === "sold") {
      miss("sold");
      continue;
    }
    if (!storeCanSell(item.store)) {
      miss("store_unavailable");
      continue;
    }
    if (variant.quantity < line.quantity) {
      miss("out_of_stock");
      continue;
    }
    const group = groups.get(item.store.id) ?? { store: item.store, lines: [] };
    group.lines.push({
      itemId: item.id,
      variantId: variant.id,
      title: item.title,
      size: variant.size,
      color: variant.color,
      condition: item.condition,
      quantity: line.quantity,
      unitPriceCents: item.priceCents,
      imageUrl: item.images[0]?.url ?? null,
      url: item.url,
    });
    groups.set(item.store.id, group);
  }
  return { groups: [...groups.values()], unavailable };
};
