/**
 * The probes a load balancer and an orchestrator ask, answered by the front door before anything
 * else (no token, no rate limit, no Next): `GET /healthz` says the process is alive without touching
 * a dependency; `GET /readyz` says whether this instance should receive traffic: 200 once the
 * migrations are applied, PostgreSQL answers, the search index is built and no shutdown began,
 * else 503 naming what is not ready. Bodies name checks and states only: no versions, hosts or error
 * messages (docs/adr/0111-probes-and-graceful-shutdown.md).
 *
 * A balancer may ask every 200 ms: each dependency check has a short timeout, the dependencies'
 * answer is shared by concurrent probes and kept for `cacheMs`, and the migrations, once found
 * applied, are not asked again. The draining state is read on every probe, so it flips at once.
 * PostgreSQL is asked on a connection of its own (server/platform/db-probe.ts). A configured Redis
 * must have answered once before the instance is ready (a wrong REDIS_URL stops a rollout at its
 * first instance); after that its outage is reported (`degraded`) but does not make the instance
 * unready: every instance shares it (RELIABILITY.md rule 6), and taking them all out when it fails
 * would turn rate limits counted in memory into an outage.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createDatabaseProbe } from "../../platform/db-probe";
import { withTimeout } from "../../platform/with-timeout";
import { AppError } from "../../core/errors";
import { send, sendError } from "./node-response";

/** Each check's state: `ok`, or a word saying what is wrong (never an error message). */
export type Checks = {
  database: "ok" | "unavailable" | "unknown";
  migrations: "ok" | "pending" | "unknown";
  /** `unavailable`: it never answered since this process started; `degraded`: it answered before, not now. */
  redis?: "ok" | "degraded" | "unavailable";
  search_index: "ok" | "building";
  shutdown: "ok" | "draining";
};

/** Whether `checks` make the instance ready; Redis only until it first answered (see the header). */
export const isReady = (checks: Checks) =>
  checks.redis !== "unavailable" &&
  checks.database === "ok" &&
  checks.migrations === "ok" &&
  checks.search_index === "ok" &&
  checks.shutdown === "ok";

/**
 * How soon to ask again when not ready (every 503 carries Retry-After, RELIABILITY rule 10): a
 * dependency's answer is kept half a second, an index builds in seconds, a drain lasts about 10.
 */
export const notReadyRetryAfterSeconds = 5;

/** The /readyz answer for `checks`. */
export const readinessAnswer = (checks: Checks) =>
  isReady(checks)
    ? { status: 200, body: { status: "ready", checks } }
    : {
        status: 503,
        body: { status: "not_ready", checks },
        retryAfter: notReadyRetryAfterSeconds,
      };

export type ReadinessOptions = {
  databaseUrl: string;
  /** The migration folders that must all be applied (server/edges/ops/migrate.ts lists them). */
  migrationNames: () => string[];
  /** True while this process's search index is being built (pg-search answers meanwhile). */
  isSearchIndexBuilding: () => boolean;
  isDraining: () => boolean;
  /** Pings the shared Redis; undefined when none is configured. */
  pingRedis?: () => Promise<boolean> | undefined;
  timeoutMs?: number;
  cacheMs?: number;
};

type Dependencies = Pick<Checks, "database" | "migrations" | "redis">;

/** The readiness checks of one process; `close` ends the probe's database connection. */
export const createReadiness = (options: ReadinessOptions) => {
  const timeoutMs = options.timeoutMs ?? 1_000;
  const cacheMs = options.cacheMs ?? 500;
  const database = createDatabaseProbe({ databaseUrl: options.databaseUrl, timeoutMs });
  let areMigrationsApplied = false;
  let hasRedisAnswered = false;
  let cached: { at: number; value: Promise<Dependencies> } | undefined;
  let lastKnown: Dependencies | undefined;

  const checkMigrations = async (): Promise<Checks["migrations"]> => {
    if (areMigrationsApplied) return "ok";
    const applied = await database.appliedMigrations();
    areMigrationsApplied = options.migrationNames().every((name) => applied?.has(name));
    return areMigrationsApplied ? "ok" : "pending";
  };

  const checkDatabase = async (): Promise<Pick<Checks, "database" | "migrations">> => {
    if (!(await database.answers()))
      return { database: "unavailable", migrations: areMigrationsApplied ? "ok" : "unknown" };
    return { database: "ok", migrations: await checkMigrations() };
  };

  const checkRedis = async (): Promise<Checks["redis"]> => {
    const ping = options.pingRedis?.();
    if (!ping) return undefined;
    const answered = await withTimeout(ping, timeoutMs).catch(() => false);
    if (answered) hasRedisAnswered = true;
    return answered ? "ok" : hasRedisAnswered ? "degraded" : "unavailable";
  };

  const dependencies = () => {
    const now = Date.now();
    if (!cached || now - cached.at >= cacheMs) {
      // Kept from when it was asked: a slow answer is not reused past cacheMs after it started.
      const value = Promise.all([checkDatabase(), checkRedis()]).then(([db, redis]) => {
        lastKnown = { ...db, ...(redis ? { redis } : {}) };
        return lastKnown;
      });
      cached = { at: now, value };
    }
    return cached.value;
  };

  const others = () =>
    ({ search_index: options.isSearchIndexBuilding() ? "building" : "ok" }) as const;
  return {
    check: async (): Promise<Checks> => {
      // Draining answers at once, from what was last known: a probe during a shutdown waits on nothing.
      if (options.isDraining())
        return {
          ...(lastKnown ?? { database: "unknown", migrations: "unknown" }),
          ...others(),
          shutdown: "draining",
        };
      const known = await dependencies();
      return { ...known, ...others(), shutdown: options.isDraining() ? "draining" : "ok" };
    },
    close: () => database.close(),
  };
};

const probePaths = new Set(["/healthz", "/readyz"]);

/**
 * The front door's first handler: answers /healthz and /readyz (GET and HEAD; other methods 405)
 * and returns true, or returns false for every other request.
 */
export const createProbeHandler = (readiness: { check: () => Promise<Checks> }) => {
  const answer = (
    response: ServerResponse,
    requestId: string,
    { status, body, retryAfter }: { status: number; body: unknown; retryAfter?: number },
  ) =>
    send(
      new Response(JSON.stringify(body), {
        status,
        headers: {
          "content-type": "application/json",
          "cache-control": "no-store",
          ...(retryAfter ? { "retry-after": String(retryAfter) } : {}),
        },
      }),
      response,
      requestId,
    );
  return (request: IncomingMessage, response: ServerResponse, requestId: string): boolean => {
    const pathname = (request.url ?? "").split("?")[0];
    if (!probePaths.has(pathname)) return false;
    const fail = () => response.destroy();
    if (request.method !== "GET" && request.method !== "HEAD") {
      sendError(response, requestId, new AppError("method_not_allowed"), {
        Allow: "GET, HEAD",
      }).catch(fail);
      return true;
    }
    if (pathname === "/healthz") {
      answer(response, requestId, { status: 200, body: { status: "alive" } }).catch(fail);
      return true;
    }
    readiness
      .check()
      .then((checks) => answer(response, requestId, readinessAnswer(checks)))
      .catch(fail);
    return true;
  };
};
