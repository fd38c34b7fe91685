/**
 * Starts this process's in-memory catalogue index (npm start calls it unless SEARCH_IMPL=postgres).
 * The build runs in the background: requests are served by pg-search until it is ready.
 */
import { useCatalogSync, runningCatalogSync } from "../index";
import { CatalogSync, type CatalogSyncOptions } from "./catalog-sync";

/** Starts (once per process) the index and its sync; `ready` settles when the first build is done. */
export const startCatalogIndex = (options: CatalogSyncOptions) => {
  const running = runningCatalogSync();
  if (running) return { sync: running, ready: Promise.resolve() };
  const sync = new CatalogSync(options);
  useCatalogSync(sync);
  const ready = sync.start().catch((error: Error) => {
    options.log?.(
      `[search] the in-memory index failed to start, serving from PostgreSQL: ${error.message}`,
    );
    useCatalogSync(undefined);
    void sync.stop();
  });
  return { sync, ready };
};
