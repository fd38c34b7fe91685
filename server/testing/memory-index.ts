/** The in-memory search index over the test file's database, kept fresh by NOTIFY (no periodic catch-up). */
import { db } from "../platform/db";
import { CatalogSync } from "../catalogue/search/memory/catalog-sync";
import { createMemorySearch } from "../catalogue/search/memory/memory-search";
import { inThisThread } from "../catalogue/search/memory/index-host";
import { createPgSearch } from "../catalogue/search/pg-search";

/** Builds the index and starts listening; `sync.stop()` it in afterAll. */
export const startMemorySearch = async () => {
  const sync = new CatalogSync({ databaseUrl: process.env.DATABASE_URL!, catchUpMs: 600_000 });
  await sync.start();
  const host = inThisThread(sync);
  return {
    sync,
    host,
    memory: createMemorySearch({ host, fallback: createPgSearch(db()) }),
  };
};
