/**
 * Crash tests' child processes (purchase-process.ts) on the database through a proxy: start one,
 * SIGKILL it when a chosen statement reaches the proxy (held back there, so it never runs), and
 * run the process "after a restart" (one sweep of every due task at a given time).
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";
import type { databaseProxy } from "./db-proxy";

const entry = path.resolve(__dirname, "purchase-process.ts");
const root = path.resolve(__dirname, "../..");

export const crashHarness = (proxy: ReturnType<typeof databaseProxy>) => {
  const run = (
    args: string[],
  ): {
    child: ChildProcess;
    done: Promise<{ code: number | null; signal: string | null; output: string }>;
  } => {
    const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: proxy.url() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    const done = new Promise<{ code: number | null; signal: string | null; output: string }>(
      (resolve) => child.once("exit", (code, signal) => resolve({ code, signal, output })),
    );
    return { child, done };
  };

  /** Runs the child with `args` and SIGKILLs it when `statement` reaches the proxy. */
  const killedAt = async (statement: RegExp, args: string[]) => {
    const reached = proxy.stallBefore(statement);
    const worker = run(args);
    await Promise.race([
      reached,
      worker.done.then(({ output }) =>
        Promise.reject(new Error(`the child ended before the chosen point: ${output}`)),
      ),
    ]);
    worker.child.kill("SIGKILL");
    const { signal } = await worker.done;
    expect(signal).toBe("SIGKILL");
  };

  const restart = async (at: Date) => {
    const { code, output } = await run(["restart", at.toISOString()]).done;
    expect(code, output).toBe(0);
  };

  return { killedAt, restart };
};
