/** GET /categories: the category tree with the number of listed items in each subtree. */
import { storeCanSellSql } from "../core/store-can-sell";
import { Prisma } from "../generated/prisma/client";
import { procedure } from "../platform/trpc/procedures";
import { type TCategoryNode, ZListCategoriesResponse } from "./catalog.schema";

export const listCategories = procedure({ caller: "partner", scope: "catalog:read" })
  .output(ZListCategoriesResponse)
  .query(async ({ ctx }) => {
    const [categories, counts] = await Promise.all([
      ctx.db.category.findMany({
        select: { id: true, path: true, name: true, parentId: true },
        orderBy: { path: "asc" },
      }),
      ctx.db.$queryRaw<{ category_id: number; count: bigint }[]>`
        SELECT i.category_id, count(*) AS count FROM items i JOIN stores s ON s.id = i.store_id
        WHERE i.status = 'active' AND ${Prisma.raw(storeCanSellSql("s"))} AND i.category_id IS NOT NULL
        GROUP BY i.category_id`,
    ]);
    const own = new Map(counts.map((row) => [row.category_id, Number(row.count)]));
    const nodes = new Map<number, TCategoryNode>(
      categories.map((category) => [
        category.id,
        {
          path: category.path,
          name: category.name,
          item_count: own.get(category.id) ?? 0,
          children: [],
        },
      ]),
    );
    const roots: TCategoryNode[] = [];
    for (const category of categories) {
      const node = nodes.get(category.id)!;
      const parent = category.parentId === null ? undefined : nodes.get(category.parentId);
      (parent ? parent.children : roots).push(node);
    }
    const total = (node: TCategoryNode): number => {
      node.item_count += node.children.reduce((sum, child) => sum + total(child), 0);
      return node.item_count;
    };
    roots.forEach(total);
    return { data: roots };
  });
