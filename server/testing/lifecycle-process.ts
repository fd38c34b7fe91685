/**
 * Starts server/testing/lifecycle-instance.ts as a process of its own (on this test file's database
 * and Redis unless `env` says otherwise) and resolves once it listens: what the probe and shutdown
 * tests signal and watch exit.
 */
import { spawn } from "node:child_process";
import path from "node:path";

export type LifecycleProcess = {
  base: string;
  port: number;
  pid: number;
  /** Everything the process printed so far. */
  output: () => string;
  /** Settles with the exit code (or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal?: NodeJS.Signals) => void;
};

export const startLifecycleProcess = (env: Record<string, string> = {}) =>
  new Promise<LifecycleProcess>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.resolve(__dirname, "lifecycle-instance.ts")],
      {
        cwd: path.resolve(__dirname, "../.."),
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((settle) =>
      child.once("exit", (code, signal) => settle({ code, signal })),
    );
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const line = output.split("\n").find((candidate) => candidate.startsWith("{"));
      if (!line) return;
      const base = (JSON.parse(line) as { base: string }).base;
      resolve({
        base,
        port: Number(new URL(base).port),
        pid: child.pid!,
        output: () => output,
        exited,
        kill: (signal = "SIGKILL") => void child.kill(signal),
      });
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    void exited.then(({ code }) =>
      reject(new Error(`the lifecycle process exited (${code}): ${output}`)),
    );
  });
