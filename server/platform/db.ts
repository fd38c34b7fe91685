/**
 * The one Prisma client of the process (driver adapter `pg`, no engine binaries). Only routers,
 * jobs, auth, mail, search and ops import it. The globalThis guard keeps one pool across dev reloads.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client";
import { env } from "./env";

/**
 * Every connection of the service waits at most 4 s for a row lock (below Prisma's 5 s transaction
 * timeout): a lock held by a stuck or half-dead session then fails the request with 503 and
 * Retry-After instead of hanging it for as long as the lock stands (found by the crash tests).
 * And no statement runs longer than 30 s: the slowest the service sends take about a second at a
 * million items, so one that runs on is a plan gone wrong (a digest search once ran 18 minutes,
 * holding its connection), and it is cancelled (57014, answered 503) instead of holding a
 * connection of a pool of ten. The catalogue's own connections (its build, its sync) and the ops
 * commands' loads have no such limit: they do not use these pools.
 */
const statementTimeoutMs = 30_000;
const sessionOptions = `-c lock_timeout=4000 -c statement_timeout=${statementTimeoutMs}`;

/** Connections in each pool (Prisma's and the raw one), per thread that opens them. */
export const poolSize = () => Number(process.env.DATABASE_POOL_MAX ?? 10);

const globalForDb = globalThis as unknown as {
  shoppingDb?: Db;
  shoppingRawPool?: pg.Pool;
  shoppingPrismaPool?: pg.Pool;
};

const createClient = () => {
  const url = env().DATABASE_URL;
  if (!url)
    throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  // A short connect timeout turns an unreachable database into a quick 503 instead of a hung request.
  // The pool is made here (the adapter disposes of it as it would of its own) so its use can be read (poolUse).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize(),
    connectionTimeoutMillis: 2000,
    options: sessionOptions,
  });
  globalForDb.shoppingPrismaPool = pool;
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  return new PrismaClient({ adapter });
};

export type Db = ReturnType<typeof createClient>;

/** The client inside an interactive transaction (`db.$transaction(async (tx) => …)`). */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * True for the root client, false inside an interactive transaction. Not `"$transaction" in client`:
 * Prisma 7's transaction client has `$transaction` too (it nests a SAVEPOINT, two more round trips
 * per call); it has no `$connect`.
 */
export const isRootClient = (client: object): client is Db => "$connect" in client;

/**
 * Runs `work` in a new transaction, or in the one `client` already is. This is how a use case
 * whose writes span several stores opens its transaction (the stores take the `tx`); `timeout`
 * (ms) lengthens Prisma's 5 s for a new one.
 */
export const inTransaction = <T>(
  client: Db | Tx,
  work: (tx: Tx) => Promise<T>,
  options?: { timeout?: number },
): Promise<T> => (isRootClient(client) ? client.$transaction(work, options) : work(client));

/** The shared Prisma client, created on first use. */
export const db = (): Db => (globalForDb.shoppingDb ??= createClient());

/**
 * A plain `pg` pool for the few hot paths (token lookup, search result rows, and the raw-SQL
 * transactions of server/platform/sql.ts: POST /purchases) where Prisma's per-query overhead (about 1 ms of
 * CPU, and one query per relation) dominates the request. Everything else stays on Prisma.
 */
export const rawPool = (): pg.Pool => {
  if (globalForDb.shoppingRawPool) return globalForDb.shoppingRawPool;
  const url = env().DATABASE_URL;
  if (!url)
    throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  // Its transactions (server/platform/sql.ts) end if left idle for 5 s, as Prisma's transaction timeout would.
  // Its clients pipeline: a statement sent while another is in flight goes out at once rather than
  // after its answer (sqlTransaction sends BEGIN so); each keeps its own Sync, so one failing fails
  // no other outside a transaction.
  const pool = new pg.Pool({
    connectionString: url,
    pipeline: true,
    max: poolSize(),
    connectionTimeoutMillis: 2000,
    options: `${sessionOptions} -c idle_in_transaction_session_timeout=5000`,
  });
  pool.on("error", () => undefined); // a broken idle connection is dropped; the next query reconnects
  return (globalForDb.shoppingRawPool = pool);
};

/** Closes the Prisma client and the raw pool of this process, if they were opened (at shutdown). */
export const closeDatabase = async () => {
  const { shoppingDb, shoppingRawPool } = globalForDb;
  globalForDb.shoppingDb = undefined;
  globalForDb.shoppingPrismaPool = undefined;
  globalForDb.shoppingRawPool = undefined;
  await Promise.all([shoppingDb?.$disconnect(), shoppingRawPool?.end()]);
};

/** The connections of this thread's pools that are open, idle, and the callers waiting for one (for /metrics); a pool not opened yet is left out. */
export const poolUse = () =>
  (
    [
      ["prisma", globalForDb.shoppingPrismaPool],
      ["raw", globalForDb.shoppingRawPool],
    ] as const
  ).flatMap(([pool, opened]) =>
    opened
      ? [
          {
            pool,
            total: opened.totalCount,
            idle: opened.idleCount,
            waiting: opened.waitingCount,
          },
        ]
      : [],
  );

// P2024: no free pooled connection in time; P2028: an interactive transaction could not start in
// time or outlived its timeout (rolled back, nothing written). Both mean overload: retry later.
// 55P03: a row lock not granted within lock_timeout. 57014: a statement cancelled (statement_timeout,
// or an operator's pg_cancel_backend). 40P01 / 40001: PostgreSQL rolled the transaction back to break
// a deadlock or a serialization conflict; rows are locked in one order so neither should happen
// (ADR 0138), and if one does, nothing of it was written and the retry is safe (idempotency keys).
const unavailableCodes = new Set([
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "P2028",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "57P01",
  "57P03",
  "55P03",
  "57014",
  "40P01",
  "40001",
]);

/**
 * True when an error means the database cannot be reached or cannot serve right now (answer 503,
 * retry later): a connection failure, a row lock not granted within lock_timeout (55P03), a
 * statement cancelled (57014: over statement_timeout), a transaction rolled back to break a
 * deadlock or a serialization conflict (40P01, 40001), or a
 * transaction the database did not finish within Prisma's timeout (P2028, rolled back). Prisma
 * wraps a raw query's driver error in `meta.driverAdapterError`, so that is followed like `cause`.
 */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    const candidate = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      kind?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof candidate.code === "string" && unavailableCodes.has(candidate.code)) return true;
    if (candidate.kind === "DatabaseNotReachable" || candidate.kind === "ConnectionClosed")
      return true;
    if (
      typeof candidate.message === "string" &&
      /ECONNREFUSED|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|the database system is (starting|shutting) up/i.test(
        candidate.message,
      )
    )
      return true;
    current = candidate.cause ?? candidate.meta?.driverAdapterError;
  }
  return false;
};
