/**
 * The one Prisma client of the process (driver adapter `pg`, no engine binaries). Only routers,
 * jobs, auth, mail, search and ops import it. The globalThis guard keeps one pool across dev reloads.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env";

const createClient = () => {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  // A short connect timeout turns an unreachable database into a quick 503 instead of a hung request.
  const adapter = new PrismaPg({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX ?? 10), connectionTimeoutMillis: 2000 });
  return new PrismaClient({ adapter });
};

export type Db = ReturnType<typeof createClient>;

const globalForDb = globalThis as unknown as { shoppingDb?: Db };

/** The shared Prisma client, created on first use. */
export const db = (): Db => (globalForDb.shoppingDb ??= createClient());

const unavailableCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03"]);

/** True when an error means the database cannot be reached right now (answer 503, retry later). */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown };
    if (typeof candidate.code === "string" && unavailableCodes.has(candidate.code)) return true;
    if (candidate.kind === "DatabaseNotReachable" || candidate.kind === "ConnectionClosed") return true;
    if (typeof candidate.message === "string" && /ECONNREFUSED|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|the database system is (starting|shutting) up/i.test(candidate.message)) return true;
    current = candidate.cause;
  }
  return false;
};
