/**
 * The two trees `npm run bench:compare` measures: this one, and a git worktree of an older commit in
 * a temp folder (node_modules hard-linked from this tree, its own Prisma client and Next build). Each
 * benchmark runs as that tree's own `npm run bench -- <name>`, so the old figures come from the old
 * code with the old bench/ (its paths, server/ops/... before the re-cut).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { withAdmin } from "../../server/testing/databases";
import { processTree } from "./rss";

/** This tree: the one bench/compare.ts lives in. */
export const currentRoot = path.resolve(__dirname, "..", "..");

export const git = (args: string[], cwd = currentRoot) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** Runs a command in `cwd`, its output lines prefixed; rejects on a non-zero exit. */
const runLogged = (command: string, args: string[], cwd: string, prefix: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    const relay = (chunk: Buffer) =>
      chunk
        .toString()
        .split("\n")
        .filter(Boolean)
        .forEach((line) => console.log(`${prefix} ${line}`));
    child.stdout.on("data", relay);
    child.stderr.on("data", relay);
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
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
    try {
      git(["worktree", "remove", "--force", dir]);
    } catch {
      // not added, or already gone: the folder goes below and prune forgets the entry
    }
    rmSync(parent, { recursive: true, force: true });
    git(["worktree", "prune"]);
  };
  try {
    git(["worktree", "add", "--detach", dir, commit]);
    execFileSync("cp", ["-al", path.join(currentRoot, "node_modules"), dir]);
    await runLogged("npm", ["run", "db:generate"], dir, "[old prisma]");
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, commit, remove };
};

const newestChange = (target: string): number => {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target)
    .filter((name) => name !== "generated" && name !== "node_modules" && !name.endsWith(".test.ts"))
    .reduce(
      (newest, name) => Math.max(newest, newestChange(path.join(target, name))),
      stat.mtimeMs,
    );
};

/** The rule of server/start.ts (in both trees): no .next/BUILD_ID, or a source newer than it. */
const isBuildStale = (root: string) => {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const sources = [
    "app",
    "server",
    "emails",
    "next.config.mjs",
    "package-lock.json",
    "tsconfig.json",
  ];
  return (
    Math.max(...sources.map((source) => newestChange(path.join(root, source)))) >
    statSync(buildId).mtimeMs
  );
};

/**
 * Builds a tree's app before any round when `npm start` would (it would otherwise build inside the
 * first round, just before that round's measurements, on a machine hot from the build).
 */
export const ensureBuilt = async (root: string, label: string) => {
  if (!isBuildStale(root)) return console.log(`${label}: Next build is up to date`);
  console.log(`${label}: next build (none yet, or sources changed since)`);
  await runLogged("npm", ["run", "build"], root, `[${label} build]`);
};

const running = new Set<number>();

/**
 * `npm run bench -- <name> <args>` in `root`, its output relayed with `prefix`; resolves with the
 * JSON record the benchmark wrote (the path it prints as "wrote <file>.json").
 */
export const runBenchmark = (options: {
  root: string;
  name: string;
  args: string[];
  prefix: string;
  resultsDir: string;
}) =>
  new Promise<unknown>((resolve, reject) => {
    // Its own process group: a Ctrl-C reaches this process only, which then stops the whole tree.
    const child = spawn("npm", ["run", "bench", "--", options.name, ...options.args], {
      cwd: options.root,
      env: childEnv({ BENCH_RESULTS_DIR: options.resultsDir }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running.add(child.pid!);
    let written: string | null = null;
    const relay = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        console.log(`${options.prefix} ${line}`);
        const match = /^wrote (.+\.json)$/.exec(line.trim());
        if (match) written = path.resolve(options.root, match[1]);
      }
    };
    child.stdout.on("data", relay);
    child.stderr.on("data", relay);
    child.once("error", reject);
    child.once("exit", (code) => {
      running.delete(child.pid!);
      if (code !== 0) return reject(new Error(`${options.prefix} exited with ${code}`));
      if (!written) return reject(new Error(`${options.prefix} wrote no result file`));
      try {
        resolve(JSON.parse(readFileSync(written, "utf8")));
      } catch (error) {
        reject(error);
      }
    });
  });

/**
 * Stops every running benchmark with all it started (its `npm start` services are process groups
 * of their own), then drops the database `npm run bench -- purchase` names after its pid, which
 * its own cleanup would have dropped had it not been stopped.
 */
export const stopBenchmarks = async () => {
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
  if (!pids.length) return;
  await withAdmin(async (admin) => {
    for (const pid of pids)
      await admin.query(`DROP DATABASE IF EXISTS "shopping_bench_purchase_${pid}" WITH (FORCE)`);
  }).catch((error) => console.error(`could not drop the purchase databases: ${error}`));
};
