/** A query's facet filters as membership tables over dictionary ids, read by the scans (scan.ts). */
import type { CatalogIndex } from "./catalog-index";

/** Membership over ids, shifted by one so that id -1 ("none") reads entry 0, which is never set. */
export const membership = (size: number, ids: number[]) => {
  const table = new Uint8Array(size + 1);
  for (const id of ids) if (id >= 0) table[id + 1] = 1;
  return table;
};

export const categoryMembership = (index: CatalogIndex, path: string) => {
  const below = `${path} > `;
  return membership(
    index.categoryPaths.length,
    index.categoryPaths.flatMap((candidate, id) =>
      candidate === path || candidate.startsWith(below) ? [id] : [],
    ),
  );
};
