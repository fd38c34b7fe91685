/** Chooses the CatalogSearch implementation that serves requests. */
import type { Db } from "../db";
import { createPgSearch } from "./pg-search";
import type { CatalogSearch } from "./types";

const cache = new WeakMap<object, CatalogSearch>();

export const catalogSearch = (db: Db): CatalogSearch => {
  let search = cache.get(db);
  if (!search) {
    search = createPgSearch(db);
    cache.set(db, search);
  }
  return search;
};
