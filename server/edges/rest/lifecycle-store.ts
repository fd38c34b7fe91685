/**
 * Where operation lifecycles live: the `endpoint_lifecycles` table, written by the ops CLI, read
 * by every instance through a snapshot at most a second old (one small query a second per
 * instance, not one per request; a LISTEN connection per instance would buy milliseconds nobody
 * needs for a change announced months ahead). A failed read keeps the last snapshot and is logged
 * once per outage: the lifecycle must never be the reason a request fails.
 */
import { z } from "zod";
import { db } from "../../platform/db";
import { logger } from "../../platform/observability/log";

export type Brownout = { start: Date; end: Date };

export type Lifecycle = {
  operationId: string;
  deprecatedAt: Date;
  sunsetAt: Date;
  replacement: string;
  brownouts: Brownout[];
  changelogAnchor: string;
};

const ZStoredBrownouts = z.array(z.object({ start: z.coerce.date(), end: z.coerce.date() }));

/** How old a snapshot may be before a request reads the table again. */
export const lifecycleRefreshMs = 1000;

type Snapshot = { loadedAt: number; byId: ReadonlyMap<string, Lifecycle> };

let snapshot: Snapshot = { loadedAt: 0, byId: new Map() };
let loading: Promise<Snapshot> | undefined;
let failing = false;

/** A stored row as a Lifecycle. */
export const toLifecycle = (row: {
  operationId: string;
  deprecatedAt: Date;
  sunsetAt: Date;
  replacement: string;
  brownouts: unknown;
  changelogAnchor: string;
}): Lifecycle => ({
  operationId: row.operationId,
  deprecatedAt: row.deprecatedAt,
  sunsetAt: row.sunsetAt,
  replacement: row.replacement,
  // A row the CLI did not write (edited by hand) loses its brownouts rather than breaking requests.
  brownouts: ZStoredBrownouts.safeParse(row.brownouts).data ?? [],
  changelogAnchor: row.changelogAnchor,
});

const load = async (): Promise<Snapshot> => {
  try {
    const rows = await db().endpointLifecycle.findMany({ orderBy: { operationId: "asc" } });
    failing = false;
    return {
      loadedAt: Date.now(),
      byId: new Map(rows.map((row) => [row.operationId, toLifecycle(row)])),
    };
  } catch (error) {
    if (!failing)
      logger.error(
        { err: error },
        "lifecycle: cannot read endpoint_lifecycles; keeping the last snapshot",
      );
    failing = true;
    return { ...snapshot, loadedAt: Date.now() };
  }
};

/** Every operation with a lifecycle, as of at most `lifecycleRefreshMs` ago. */
export const currentLifecycles = async (): Promise<ReadonlyMap<string, Lifecycle>> => {
  if (Date.now() - snapshot.loadedAt < lifecycleRefreshMs) return snapshot.byId;
  loading ??= load().then((next) => {
    snapshot = next;
    loading = undefined;
    return next;
  });
  return (await loading).byId;
};

/** Reads the table on the next call (a write in this process is visible at once, not a second later). */
export const forgetLifecycles = () => {
  snapshot = { ...snapshot, loadedAt: 0 };
};
