/** The messages between the server's thread (search-thread.ts) and the search thread (search-worker.ts). */
import type { SearchQuery } from "../types";
import type { IndexState } from "./index-host";

/** What the server's thread asks the index. */
export type Question =
  | { kind: "search"; query: SearchQuery; lexemes: string[] }
  | { kind: "watchers"; itemIds: number[]; viewerId: string | undefined };

/** A question with the id its reply carries, or "stop". */
export type ToSearchThread = (Question & { id: number }) | { kind: "stop" };

export type FromSearchThread =
  /** The answer to request `id`: its value, or the message of what it threw. */
  | { kind: "reply"; id: number; value?: unknown; error?: string }
  /** The index's version (undefined until built) and state, sent whenever either changes. */
  | { kind: "state"; version: number | undefined; state: IndexState }
  | { kind: "log"; line: string }
  /** The first build finished, or failed (the reference answers then). */
  | { kind: "started" };
