/**
 * The two trees `npm run bench:compare` measures: this one, and a git worktree of an older commit in
 * a temp folder (node_modules hard-linked from this tree, its own Prisma client and Next build). Each
 * benchmark runs as that tree's own `npm run bench -- <name>`, so the old figures come from the old
 * code with the old bench/ (its paths, server/ops/... before the re-cut).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isBuildStale } from "../../server/edges/ops/next-build";
import { withAdmin } from "../../server/testing/databases";
import { processTree } from "./rss";

/** This tree: the one bench/compare.ts lives in. */
export const currentRoot = path.resolve(__dirname, "..", "..");

export const git = (args: string[], cwd = currentRoot) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** Children started here and still running, each a process group of its own (see stopAll). */
const running = new Set<number>();
/** Old trees not yet removed (see stopAll). */
const removals = new Set<() => void>();

/**
 * Runs a command in `cwd`, each output line prefixed and handed to `onLine`; rejects on a non-zero
 * exit. Its own process group: a Ctrl-C reaches this process only, which then stops the whole tree.
 */
const runLogged = (options: {
  command: string;
  args: string[];
  cwd: string;
  prefix: string;
  env?: Record<string, string>;
  onLine?: (line: string) => void;
}) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: childEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running.add(child.pid!);
    // Whole lines only: a chunk can end inside one ("wrote <file>.json" among them).
    const relay = () => {
      let rest = "";
      const emit = (line: string) => {
        if (!line) return;
        console.log(`${options.prefix} ${line}`);
        options.onLine?.(line);
      };
      return {
        data: (chunk: Buffer) => {
          const lines = (rest + chunk.toString()).split("\n");
          rest = lines.pop()!;
          lines.forEach(emit);
        },
        end: () => emit(rest),
      };
    };
    const out = relay();
    const err = relay();
    child.stdout.on("data", out.data).on("end", out.end);
    child.stderr.on("data", err.data).on("end", err.end);
    child.once("error", reject);
    // After the exit, the output's last lines (the "wrote" line) may still be in the pipe: wait for
    // the streams to close, but not for ever (a grandchild left running would hold them open).
    child.once("exit", (code) => {
      const settle = () => {
        running.delete(child.pid!);
        if (code === 0) return resolve();
        reject(
          new Error(
            `${options.prefix} ${options.command} ${options.args.join(" ")} exited with ${code}`,
          ),
        );
      };
      const timer = setTimeout(settle, 5000);
      child.once("close", () => {
        clearTimeout(timer);
        settle();
      });
    });
  });

/** Our environment without the outer `npm run`'s npm_* variables, which would describe this tree. */
const childEnv = (extra: Record<string, string> = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
  for (const name of Object.keys(env))
    if (name.startsWith("npm_") || name === "INIT_CWD") delete env[name];
  return env;
};

export type OldTree = { dir: string; commit: string; remove: () => void };

/**
 * `git worktree add --detach` of `commit` in a temp folder, with `cp -al` of this tree's node_modules
 * and `npm run db:generate` (server/generated is per tree). `remove` is idempotent and synchronous,
 * so an interrupt handler can call it.
 */
export const addOldTree = async (commit: string): Promise<OldTree> => {
  const parent = mkdtempSync(path.join(os.tmpdir(), "bench-compare-"));
  const dir = path.join(parent, "tree");
  let isRemoved = false;
  const remove = () => {
    if (isRemoved) return;
    isRemoved = true;
    removals.delete(remove);
    let isForgotten = true;
    try {
      git(["worktree", "remove", "--force", dir]);
    } catch {
      isForgotten = false;
    }
    rmSync(parent, { recursive: true, force: true });
    // Not added, or half removed: with its folder gone, prune forgets the entry.
    if (!isForgotten) git(["worktree", "prune"]);
  };
  removals.add(remove);
  try {
    git(["worktree", "add", "--detach", dir, commit]);
    execFileSync("cp", ["-al", path.join(currentRoot, "node_modules"), dir]);
    await runLogged({
      command: "npm",
      args: ["run", "db:generate"],
      cwd: dir,
      prefix: "[old prisma]",
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, commit, remove };
};

/**
 * Builds a tree's app before any round when `npm start` would (it would otherwise build inside the
 * first round, just before that round's measurements, on a machine hot from the build).
 */
export const ensureBuilt = async (root: string, label: string) => {
  if (!isBuildStale(root)) return console.log(`${label}: Next build is up to date`);
  console.log(`${label}: next build (none yet, or sources changed since)`);
  await runLogged({
    command: "npm",
    args: ["run", "build"],
    cwd: root,
    prefix: `[${label} build]`,
  });
};

/**
 * `npm run bench -- <name> <args>` in `root`, its output relayed with `prefix`; resolves with the
 * JSON record the benchmark wrote (the path it prints as "wrote <file>.json").
 */
export const runBenchmark = async (options: {
  root: string;
  name: string;
  args: string[];
  prefix: string;
  resultsDir: string;
  /** The benchmark's database names start with it (`BENCH_DB_PREFIX`) when given. */
  databasePrefix?: string;
}): Promise<unknown> => {
  let written: string | null = null;
  await runLogged({
    command: "npm",
    args: ["run", "bench", "--", options.name, ...options.args],
    cwd: options.root,
    prefix: options.prefix,
    env: {
      BENCH_RESULTS_DIR: options.resultsDir,
      ...(options.databasePrefix && { BENCH_DB_PREFIX: options.databasePrefix }),
    },
    onLine: (line) => {
      const match = /^wrote (.+\.json)$/.exec(line.trim());
      if (match) written = path.resolve(options.root, match[1]);
    },
  });
  if (!written) throw new Error(`${options.prefix} wrote no result file`);
  return JSON.parse(readFileSync(written, "utf8"));
};

/**
 * On an interrupt: stops every child started here (a build, a benchmark) with all it started (the
 * `npm start` services are process groups of their own), drops the database `npm run bench --
 * purchase` names after its pid (its own cleanup would have, had it not been stopped), and removes
 * the old trees.
 */
export const stopAll = async () => {
  const pids = [...running].flatMap((pid) => processTree(pid));
  const signal = (name: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // already gone
      }
    }
  };
  signal("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 3000));
  signal("SIGKILL");
  if (pids.length)
    await withAdmin(async (admin) => {
      for (const pid of pids)
        await admin.query(`DROP DATABASE IF EXISTS "shopping_bench_purchase_${pid}" WITH (FORCE)`);
    }).catch((error) => console.error(`could not drop the purchase databases: ${error}`));
  for (const remove of [...removals]) remove();
};
