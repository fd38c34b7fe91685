/**
 * `npx tsx bench/search-ab.ts --against <rev> [--items N] [--repeat R]`: the memory index's
 * evaluate() of this tree against that of commit <rev>, in one process on one index, the two run
 * back to back for every path of the search mix (in alternating order), CPU time per query shape.
 * On a shared box two separate runs differ by 10-20% from the load alone; side by side, a change of
 * a few percent shows. <rev>'s server/ is unpacked into a temp folder (node_modules and the Prisma
 * client linked from this tree) and only its evaluate() is loaded, so the index layout (CatalogIndex)
 * must be the same in both trees.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { evaluate } from "../server/catalogue/search/memory/evaluate";
import { preparedSearchMix } from "./lib/search-mix-prepared";

const { values } = parseArgs({
  options: {
    against: { type: "string" },
    items: { type: "string" },
    repeat: { type: "string" },
  },
});
if (!values.against) throw new Error("--against <rev> is required");
const items = Number(values.items ?? 1_000_000);
const repeat = Number(values.repeat ?? 2);
const root = path.resolve(__dirname, "..");

/** <rev>'s server/ in a temp folder, runnable with this tree's packages. */
const unpack = (rev: string) => {
  const tree = mkdtempSync(path.join(os.tmpdir(), "search-ab-"));
  const archive = execFileSync("git", ["archive", rev, "server"], {
    cwd: root,
    maxBuffer: 2 ** 30,
  });
  execFileSync("tar", ["-x", "-C", tree], { input: archive });
  symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"));
  rmSync(path.join(tree, "server", "generated"), { recursive: true, force: true });
  symlinkSync(path.join(root, "server", "generated"), path.join(tree, "server", "generated"));
  copyFileSync(path.join(root, "tsconfig.json"), path.join(tree, "tsconfig.json"));
  return tree;
};

const cpuMsOf = (run: () => unknown) => {
  const cpu = process.cpuUsage();
  run();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
};

const main = async () => {
  const log = (line: string) => console.log(line);
  const tree = unpack(values.against!);
  try {
    const other = (await import(path.join(tree, "server/catalogue/search/memory/evaluate.ts"))) as {
      evaluate: typeof evaluate;
    };
    const { client, index, prepared } = await preparedSearchMix(items, log);
    const byShape = new Map<string, { before: number; after: number; count: number }>();
    const runs: { path: string; shape: string; before: number; after: number }[] = [];
    for (let round = 0; round < repeat; round++)
      for (const entry of prepared) {
        const runBefore = () => other.evaluate(index, entry.query, entry.lexemes);
        const runAfter = () => evaluate(index, entry.query, entry.lexemes);
        // Alternate which goes first: the second finds the caches warm.
        const isBeforeFirst = runs.length % 2 === 0;
        const first = cpuMsOf(isBeforeFirst ? runBefore : runAfter);
        const second = cpuMsOf(isBeforeFirst ? runAfter : runBefore);
        const run = {
          path: entry.path,
          shape: entry.shape,
          before: isBeforeFirst ? first : second,
          after: isBeforeFirst ? second : first,
        };
        runs.push(run);
        const totals = byShape.get(entry.shape) ?? { before: 0, after: 0, count: 0 };
        totals.before += run.before;
        totals.after += run.after;
        totals.count++;
        byShape.set(entry.shape, totals);
      }
    const change = (before: number, after: number) => `${Math.round(100 * (after / before - 1))}%`;
    console.table(
      [...byShape].map(([shape, totals]) => ({
        shape,
        searches: totals.count,
        [`${values.against} CPU ms`]: Math.round(totals.before),
        "this tree CPU ms": Math.round(totals.after),
        change: change(totals.before, totals.after),
      })),
    );
    const heavy = runs.filter((run) => run.before > 8);
    const sum = (key: "before" | "after") => heavy.reduce((total, run) => total + run[key], 0);
    log(
      `the ${heavy.length} over 8 ms before: ${Math.round(sum("before"))} -> ${Math.round(sum("after"))} ms (${change(sum("before"), sum("after"))})`,
    );
    for (const run of heavy.sort((a, b) => b.before - a.before).slice(0, 20))
      log(`  ${run.before.toFixed(1)} -> ${run.after.toFixed(1)} ms ${run.shape} ${run.path}`);
    await client.end();
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
