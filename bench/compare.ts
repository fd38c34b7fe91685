/**
 * `npm run bench:compare -- [<git-ref>] [search purchase watches] [--seconds N] [--rounds 2] [--items N] [--only memory|postgres]`:
 * the same benchmarks on an older commit (default 370cd40, the commit before the issue-25 re-cut)
 * and on this tree, in one run on one machine, printed side by side.
 * - The old commit is a `git worktree add --detach` in a temp folder (bench/lib/compare-tree.ts),
 *   measured with its own bench/ code; it is removed at the end, also on a failure or Ctrl-C.
 * - Rounds alternate in pairs, old new, new old, ... (--rounds per tree, at least 2), so a steady
 *   drift of the machine during the run reaches both trees alike.
 * - Per figure: each tree's median over its rounds, the change in percent, and the noise: the larger
 *   spread between one tree's own rounds, at least 5% (bench/lib/compare-metrics.ts). A change is
 *   flagged only beyond that noise and with no overlap between the two trees' rounds.
 * - --items and --only are passed to the benchmarks that take them (search and watches take --items,
 *   search takes --only), e.g. `search --items 1000000 --only memory` for the index at a million.
 * - Writes bench/results/compare-<date>.json (every round's full record too); the benchmarks' own
 *   records of this tree go to a temp folder, so the committed bench/results figures stay as they are.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { compare, metricsOf, noiseFloorPercent, type Comparison } from "./lib/compare-metrics";
import {
  addOldTree,
  currentRoot,
  ensureBuilt,
  git,
  runBenchmark,
  stopAll,
  type OldTree,
} from "./lib/compare-tree";
import { machine } from "./lib/machine";
import { printTable } from "./lib/report";

const benchmarkNames = ["search", "purchase", "watches"] as const;
/**
 * The old tree's database names when its schema differs (the benchmark's own prefix, marked old);
 * purchase makes a database of its own every run.
 */
const oldDatabasePrefixes: Record<(typeof benchmarkNames)[number], string | undefined> = {
  search: "shopping_bench_old_",
  purchase: undefined,
  watches: "shopping_bench_watches_old_",
};
const defaultRef = "370cd40";

const ZArgs = z.object({
  ref: z.string().min(1),
  benchmarks: z.array(z.enum(benchmarkNames)).min(1),
  seconds: z.coerce.number().int().min(3).max(600).optional(),
  rounds: z.coerce.number().int().min(2).max(10).default(2),
  items: z.coerce.number().int().min(1000).max(10_000_000).optional(),
  only: z.enum(["memory", "postgres"]).optional(),
});

const parse = () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seconds: { type: "string" },
      rounds: { type: "string" },
      items: { type: "string" },
      only: { type: "string" },
    },
  });
  // A first word that is not a benchmark is the ref.
  const isRefGiven =
    positionals.length > 0 && !(benchmarkNames as readonly string[]).includes(positionals[0]);
  const parsed = ZArgs.safeParse({
    ref: isRefGiven ? positionals[0] : defaultRef,
    benchmarks: positionals.slice(isRefGiven ? 1 : 0).length
      ? positionals.slice(isRefGiven ? 1 : 0)
      : [...benchmarkNames],
    ...values,
  });
  if (!parsed.success) {
    console.error(
      `usage: npm run bench:compare -- [<git-ref>] [${benchmarkNames.join(" ")}] [--seconds N] [--rounds 2] [--items N] [--only memory|postgres]\n` +
        parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("\n"),
    );
    process.exit(2);
  }
  return parsed.data;
};

const formatRounds = (values: number[]) =>
  values.map((value) => Math.round(value * 100) / 100).join(" / ");

const printComparison = (title: string, rows: Comparison[]) =>
  printTable(
    title,
    rows.map((row) => ({
      metric: row.metric,
      "old rounds": formatRounds(row.old),
      "new rounds": formatRounds(row.new),
      old: row.oldMedian,
      new: row.newMedian,
      "change %":
        row.changePercent === null
          ? null
          : `${row.changePercent > 0 ? "+" : ""}${row.changePercent}`,
      "noise %": row.noisePercent,
      verdict: row.verdict,
    })),
  );

let isInterrupted = false;
/** This tree's records go to a temp folder (bench/lib/report.ts reads BENCH_RESULTS_DIR). */
let scratch: string | undefined;
const removeScratch = () => scratch && rmSync(scratch, { recursive: true, force: true });

/** Ctrl-C or SIGTERM: everything started is stopped and removed, then the process exits. */
const onSignal = async (signal: NodeJS.Signals) => {
  if (isInterrupted) return;
  isInterrupted = true;
  console.error(`\n${signal}: stopping the benchmarks and removing the old tree`);
  await stopAll();
  removeScratch();
  process.exit(130);
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

type Round = { tree: "old" | "new"; round: number; record: unknown };

/** One benchmark, old and new alternating for `rounds` rounds; its table, and what the JSON keeps. */
const measure = async (options: {
  name: (typeof benchmarkNames)[number];
  trees: { old: string; new: string };
  ref: string;
  rounds: number;
  passed: string[];
  /** Given when the old tree's migrations differ: its databases are its own, not migrated by the new tree. */
  oldDatabasePrefix?: string;
}) => {
  const { name, trees } = options;
  const rounds: Round[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++)
      for (const tree of round % 2 ? (["old", "new"] as const) : (["new", "old"] as const)) {
        const prefix = `[${name} ${tree} ${round}/${options.rounds}]`;
        const command = ["npm run bench --", name, ...options.passed].join(" ");
        console.log(`\n${prefix} ${command} in ${trees[tree]}`);
        const record = await runBenchmark({
          root: trees[tree],
          name,
          args: options.passed,
          prefix,
          resultsDir: scratch!,
          databasePrefix: tree === "old" ? options.oldDatabasePrefix : undefined,
        });
        rounds.push({ tree, round, record });
      }
  } catch (error) {
    if (isInterrupted) throw error;
    console.error(`${name} failed: ${(error as Error).message}`);
    return { error: (error as Error).message, rounds };
  }
  const valuesOf = (tree: "old" | "new", value: (record: unknown) => number | null) =>
    rounds
      .filter((entry) => entry.tree === tree)
      .map((entry) => value(entry.record))
      .filter((figure): figure is number => figure !== null);
  const comparison = metricsOf[name]
    .map((metric) => compare(metric, valuesOf("old", metric.value), valuesOf("new", metric.value)))
    .filter((row) => row.old.length || row.new.length);
  printComparison(
    `${name}: old ${options.ref} against new (${options.rounds} rounds each, medians)`,
    comparison,
  );
  return { comparison, rounds };
};

const main = async () => {
  const args = parse();
  const oldCommit = git(["rev-parse", "--verify", `${args.ref}^{commit}`]);
  const newCommit = git(["rev-parse", "HEAD"]);
  const isDirty = git(["status", "--porcelain"]).length > 0;
  const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, "-");
  const outFile = path.join(currentRoot, "bench", "results", `compare-${stamp}.json`);
  const record = {
    name: "compare",
    measuredAt: new Date().toISOString(),
    machineAtStart: machine(),
    old: { ref: args.ref, commit: oldCommit },
    new: { tree: currentRoot, commit: newCommit, hasUncommittedChanges: isDirty },
    seconds: args.seconds ?? null,
    rounds: args.rounds,
    items: args.items ?? null,
    only: args.only ?? null,
    noise: `per figure, the larger spread (max - min, percent of the median) of either tree's own rounds, at least ${noiseFloorPercent}%; flagged only beyond it and when the two trees' rounds do not overlap`,
    benchmarks: {} as Record<string, Awaited<ReturnType<typeof measure>>>,
    machineAtEnd: null as ReturnType<typeof machine> | null,
  };
  const save = () => {
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, `${JSON.stringify(record, null, 2)}\n`);
  };
  console.log(
    `old: ${args.ref} (${oldCommit.slice(0, 10)}), new: ${currentRoot} at ${newCommit.slice(0, 10)}${isDirty ? " with uncommitted changes" : ""}`,
  );
  scratch = mkdtempSync(path.join(os.tmpdir(), "bench-compare-results-"));
  let oldTree: OldTree | undefined;
  try {
    oldTree = await addOldTree(oldCommit);
    console.log(`old tree in ${oldTree.dir}`);
    const trees = { old: oldTree.dir, new: currentRoot };
    await ensureBuilt(trees.old, "old");
    await ensureBuilt(trees.new, "new");
    const seconds = args.seconds ? ["--seconds", String(args.seconds)] : [];
    const hasOtherMigrations =
      git(["diff", "--name-only", oldCommit, "--", "prisma/migrations"]).length > 0;
    for (const name of args.benchmarks) {
      const passed = [
        ...seconds,
        ...(args.items && name !== "purchase" ? ["--items", String(args.items)] : []),
        ...(args.only && name === "search" ? ["--only", args.only] : []),
      ];
      record.benchmarks[name] = await measure({
        name,
        trees,
        ref: args.ref,
        rounds: args.rounds,
        passed,
        oldDatabasePrefix: hasOtherMigrations ? oldDatabasePrefixes[name] : undefined,
      });
      save(); // after each benchmark: a later failure keeps the earlier ones
    }
  } finally {
    if (!isInterrupted) {
      oldTree?.remove();
      removeScratch();
    }
  }
  record.machineAtEnd = machine();
  save();
  console.log(`\nwrote ${path.relative(currentRoot, outFile)}`);
  if (Object.values(record.benchmarks).some((result) => "error" in result)) process.exitCode = 1;
};

// Once interrupted, the signal handler ends the process, when it has cleaned up.
main()
  .then(() => isInterrupted || process.exit(process.exitCode ?? 0))
  .catch((error) => {
    if (isInterrupted) return;
    console.error(error);
    process.exit(1);
  });
