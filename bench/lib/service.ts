/**
 * Starts the service as an operator would (`npm start`, production build) on a free port with the
 * chosen search implementation, and waits until it serves and, for the memory index, has built it.
 * Without `databaseUrl` it starts the embedded default exactly as a newcomer gets it: DATABASE_URL
 * and REDIS_URL removed from the child's environment, the database in `dataDir`.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { isRunning, processTree } from "./rss";

const root = path.resolve(__dirname, "..", "..");

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export type Service = {
  baseUrl: string;
  pid: number;
  indexBuildMs: number | null;
  stop: () => Promise<void>;
  /** Sends `signal` to the whole process group (npm, its shell, node); resolves when every one of them has ended. */
  signal: (signal: NodeJS.Signals) => Promise<void>;
  unexpectedErrors: () => string[];
};

/** The child's environment: the configured servers, or none of them for the embedded default. */
const serviceEnv = (options: {
  databaseUrl?: string;
  dataDir?: string;
  port: number;
  baseUrl: string;
  searchImpl: string;
  env?: Record<string, string>;
}) => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    SEED_ITEMS: "0",
    PORT: String(options.port),
    PUBLIC_URL: options.baseUrl,
    SEARCH_IMPL: options.searchImpl,
    RATE_LIMIT_PREFIX: `bench:${Date.now()}`,
    // Every load comes from one address and the token phase from one client: the auth limits would refuse it.
    AUTH_RATE_LIMITS: "off",
    // No balancer to wait for: stop() sends SIGTERM and expects the service gone within seconds.
    SHUTDOWN_DRAIN_MS: "0",
    ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
    ...options.env,
  };
  // As an operator runs it: Next chooses production itself (a test runner's NODE_ENV=test would not).
  Reflect.deleteProperty(env, "NODE_ENV");
  if (!options.databaseUrl) {
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
  }
  return env;
};

/**
 * `npm start` with DATABASE_URL (or the embedded default in `dataDir` when it is omitted), REDIS_URL,
 * SEED_ITEMS=0 (unless `env` says otherwise) and SEARCH_IMPL; resolves when ready.
 */
export const startService = async (options: {
  databaseUrl?: string;
  dataDir?: string;
  searchImpl: "memory" | "postgres";
  log: (line: string) => void;
  env?: Record<string, string>;
  /** A fixed port (several instances behind a balancer), else a free one. */
  port?: number;
}): Promise<Service> => {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn("npm", ["start"], {
    cwd: root,
    env: serviceEnv({ ...options, port, baseUrl }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  let indexBuildMs: number | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    let isServing = false;
    let isIndexed = options.searchImpl === "postgres";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split("\n").filter(Boolean))
        if (/\[(start|search|postgres)\]|"component":"(start|postgres)"/.test(line))
          options.log(`  service: ${line.trim()}`);
      // The launcher's lines are JSON (server/platform/observability/log.ts) when stdout is a pipe.
      if (/"component":"start".*"msg":"serving /.test(text)) isServing = true;
      const built = /\[search\] index built: .*?(\d+) ms/.exec(text);
      if (built) {
        isIndexed = true;
        indexBuildMs = Number(built[1]);
      }
      if (isServing && isIndexed) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`npm start exited with ${code}:\n${output.slice(-3000)}`)),
    );
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const pids = processTree(child.pid!);
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      for (const pid of pids) process.kill(pid, "SIGTERM");
    }
    // A clean stop (the embedded PostgreSQL shuts down with it) takes a moment; then force what is left.
    for (
      let waited = 0;
      waited < 10_000 && child.exitCode === null && child.signalCode === null;
      waited += 250
    )
      await new Promise((resolve) => setTimeout(resolve, 250));
    for (const pid of processTree(child.pid!)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  /** The service's "unexpected error" log entries (a 500's cause), each with its first lines. */
  const unexpectedErrors = () =>
    output
      .split(/\n(?=\[)/)
      .filter((entry) => entry.includes("unexpected error"))
      .map((entry) => entry.split("\n").slice(0, 4).join(" | "));
  const signal = async (name: NodeJS.Signals) => {
    const pids = processTree(child.pid!);
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone already
    }
    while (pids.some(isRunning)) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  return { baseUrl, pid: child.pid!, indexBuildMs, stop, signal, unexpectedErrors };
};
