/** GET /categories: the category tree with the number of listed items in each subtree. */
import { procedure } from "../platform/trpc/procedures";
import { type TCategoryNode, ZListCategoriesResponse } from "./catalog.schema";
import { readCategoryCounts } from "./store/products";

export const listCategories = procedure({ caller: "partner", scope: "catalog:read" })
  .output(ZListCategoriesResponse)
  .query(async ({ ctx }) => {
    const { categories, ownCounts: own } = await readCategoryCounts(ctx.db);
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
