/**
 * Starts this process's in-memory catalogue index on the search thread (npm start calls it unless
 * SEARCH_IMPL=postgres) and makes it the index searches answer from. The build runs in the
 * background: requests are served by pg-search until it is ready.
 */
import { useIndexHost } from "../index";
import { startSearchThread } from "./search-thread";

/** `ready` settles when the first build is done (or failed: pg-search answers then). */
export const startCatalogIndex = (options: {
  databaseUrl: string;
  log: (line: string) => void;
}) => {
  const { host, ready } = startSearchThread(options);
  useIndexHost(host);
  return { host, ready };
};
