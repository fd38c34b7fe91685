/**
 * Starts a test entry of this folder (api-instance.ts, lifecycle-instance.ts, traced-api-instance.ts)
 * as a process of its own, on this test file's database and Redis unless `env` says otherwise, and
 * resolves once it listens, with what its `{"base": …}` line announced. The service's log lines are
 * JSON too (server/platform/observability/log.ts), so only a line starting `{"base"` counts.
 */
import { spawn } from "node:child_process";
import path from "node:path";

export type InstanceProcess<Announced extends object = object> = {
  base: string;
  port: number;
  pid: number;
  /** The whole `{"base": …}` line (an entry may announce more than its address). */
  announced: Announced & { base: string };
  /** Everything the process printed so far. */
  output: () => string;
  /** Settles with the exit code (or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal?: NodeJS.Signals) => void;
  /** SIGTERM, then waits for the exit. */
  stop: () => Promise<void>;
};

export const startInstanceProcess = <Announced extends object = object>(
  entry: string,
  env: Record<string, string> = {},
) =>
  new Promise<InstanceProcess<Announced>>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve(__dirname, entry)], {
      cwd: path.resolve(__dirname, "../.."),
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((settle) =>
      child.once("exit", (code, signal) => settle({ code, signal })),
    );
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      // Finished lines only: a chunk may end inside the announcement.
      const line = output
        .split("\n")
        .slice(0, -1)
        .find((candidate) => candidate.startsWith('{"base"'));
      if (!line) return;
      const announced = JSON.parse(line) as Announced & { base: string };
      resolve({
        base: announced.base,
        port: Number(new URL(announced.base).port),
        pid: child.pid!,
        announced,
        output: () => output,
        exited,
        kill: (signal = "SIGKILL") => void child.kill(signal),
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    void exited.then(({ code }) => reject(new Error(`${entry} exited (${code}): ${output}`)));
  });
