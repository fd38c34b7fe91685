/**
 * The embedded default database: PGlite (PostgreSQL compiled to WebAssembly) kept in DATA_DIR,
 * served on a Unix socket by pglite-socket so Prisma, the ops CLI and psql all speak the ordinary
 * PostgreSQL protocol to it. Only used when DATABASE_URL is not set.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const stateFile = (dataDir: string) => path.join(path.resolve(dataDir), "embedded-db.json");
const socketDir = (dataDir: string) => path.join(path.resolve(dataDir), "socket");

const urlFor = (dataDir: string) => `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir(dataDir))}`;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The URL of an embedded database another process of this service is serving, if any. */
export const runningEmbeddedDatabaseUrl = (dataDir: string): string | undefined => {
  if (!existsSync(stateFile(dataDir))) return undefined;
  const state = JSON.parse(readFileSync(stateFile(dataDir), "utf8")) as { url: string; pid: number };
  return isAlive(state.pid) ? state.url : undefined;
};

/** Opens PGlite in DATA_DIR and serves it on a Unix socket; returns its URL and a stop function. */
export const startEmbeddedDatabase = async (dataDir: string) => {
  const running = runningEmbeddedDatabaseUrl(dataDir);
  if (running) throw new Error(`The embedded database in ${dataDir} is already served by another process (${running}).`);
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  mkdirSync(socketDir(dataDir), { recursive: true });
  const socketPath = path.join(socketDir(dataDir), ".s.PGSQL.5432");
  rmSync(socketPath, { force: true });
  const database = await PGlite.create(path.join(path.resolve(dataDir), "pglite"));
  const server = new PGLiteSocketServer({ db: database, path: socketPath, maxConnections: 32 } as never);
  await server.start();
  const url = urlFor(dataDir);
  writeFileSync(stateFile(dataDir), JSON.stringify({ url, pid: process.pid }));
  return {
    url,
    stop: async () => {
      rmSync(stateFile(dataDir), { force: true });
      await server.stop();
      await database.close();
    },
  };
};
