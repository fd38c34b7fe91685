/**
 * Catalogue store: what matching an item against saved searches reads of it (search/item-matches.ts),
 * in one statement for a batch of items: price, brand, category path, size keys, colours, store
 * slug, the lexemes of its search_vector, and whether it can be sold now (active, its store can
 * sell, a unit left: the rule search's `available` and the quote use).
 */
import { storeCanSellSql } from "../../core/store-can-sell";
import { Prisma } from "../../generated/prisma/client";
import { anyOf, type Sql } from "../../platform/sql";
import type { ItemMatchFacts } from "../search/item-matches";

export const readMatchFacts = async (
  sql: Sql,
  itemIds: readonly number[],
): Promise<ItemMatchFacts[]> => {
  if (itemIds.length === 0) return [];
  return sql.$queryRaw<ItemMatchFacts[]>`
    SELECT i.id, i.price_cents AS "priceCents", i.brand, c.path AS "categoryPath", i.size_keys AS "sizeKeys",
      i.colors, s.slug AS "storeSlug", ARRAY(SELECT lexeme FROM unnest(i.search_vector)) AS lexemes,
      (i.status = 'active' AND ${Prisma.raw(storeCanSellSql("s"))}
        AND i.is_available) AS "canSellNow"
    FROM items i JOIN stores s ON s.id = i.store_id LEFT JOIN categories c ON c.id = i.category_id
    WHERE ${anyOf(Prisma.sql`i.id`, [...new Set(itemIds)], "int")}`;
};
