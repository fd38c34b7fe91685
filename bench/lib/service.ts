/**
 * Starts the service as an operator would (`npm start`, production build) on a free port with the
 * chosen search implementation, and waits until it serves and, for the memory index, has built it.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { processTree } from "./rss";

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

export type Service = { baseUrl: string; pid: number; indexBuildMs: number | null; stop: () => Promise<void> };

/** `npm start` with DATABASE_URL, REDIS_URL, SEED_ITEMS=0 and SEARCH_IMPL; resolves when ready. */
export const startService = async (options: { databaseUrl: string; searchImpl: "memory" | "postgres"; log: (line: string) => void; env?: Record<string, string> }): Promise<Service> => {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn("npm", ["start"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      SEED_ITEMS: "0",
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      SEARCH_IMPL: options.searchImpl,
      RATE_LIMIT_PREFIX: `bench:${Date.now()}`,
      // Every load comes from one address and the token phase from one client: the auth limits would refuse it.
      AUTH_RATE_LIMITS: "off",
      ...options.env,
    },
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
      for (const line of text.split("\n").filter(Boolean)) if (/\[(start|search)\]/.test(line)) options.log(`  service: ${line.trim()}`);
      if (/\[start\] serving/.test(text)) isServing = true;
      const built = /\[search\] index built: .*?(\d+) ms/.exec(text);
      if (built) {
        isIndexed = true;
        indexBuildMs = Number(built[1]);
      }
      if (isServing && isIndexed) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output.slice(-3000)}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const pids = processTree(child.pid!);
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      for (const pid of pids) process.kill(pid, "SIGTERM");
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
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
  return { baseUrl, pid: child.pid!, indexBuildMs, stop };
};
