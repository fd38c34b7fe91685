/**
 * `npx tsx bench/search-profile.ts [--items N] [--repeat R]`: where the search mix's time goes in
 * the memory index, without HTTP and without a quiet box. Builds the index in-process from the
 * bench catalogue, runs the fixed mix (bench/lib/query-mix.ts) through evaluate() and the page-row
 * query, and prints per query shape the CPU time of each step, the slowest requests, GC pauses
 * (PerformanceObserver) and event-loop delay. Times are per request, so a busy box stretches them
 * but does not reorder which shapes are slow.
 */
import { PerformanceObserver, monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { evaluate } from "../server/catalogue/search/memory/evaluate";
import { preparedSearchMix } from "./lib/search-mix-prepared";

const { values } = parseArgs({
  options: { items: { type: "string" }, repeat: { type: "string" } },
});
const items = Number(values.items ?? 1_000_000);
const repeat = Number(values.repeat ?? 2);

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
const round = (value: number) => Math.round(value * 100) / 100;

const main = async () => {
  const log = (line: string) => console.log(line);
  const { client, index, prepared } = await preparedSearchMix(items, log);

  const gcPauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ["gc"] });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();

  type Sample = {
    path: string;
    shape: string;
    evalMs: number;
    cpuMs: number;
    rowsMs: number;
    hits: number;
  };
  const samples: Sample[] = [];
  const gcBefore = gcPauses.length;
  const started = performance.now();
  for (let round = 0; round < repeat; round++)
    for (const entry of prepared) {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const hits = evaluate(index, entry.query, entry.lexemes);
      const t1 = performance.now();
      const used = process.cpuUsage(cpu);
      // The page-row query the route runs next (server/catalogue/store/products.ts).
      await client.query(
        "SELECT i.id, i.title FROM items i JOIN stores s ON s.id = i.store_id LEFT JOIN categories c ON c.id = i.category_id WHERE i.id = ANY($1::int[])",
        [hits.ids],
      );
      const t2 = performance.now();
      samples.push({
        path: entry.path,
        shape: entry.shape,
        evalMs: t1 - t0,
        cpuMs: (used.user + used.system) / 1000,
        rowsMs: t2 - t1,
        hits: hits.total,
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
  const wallMs = performance.now() - started;
  loop.disable();
  observer.disconnect();

  const shapes = [...new Set(samples.map((sample) => sample.shape))];
  const rows = shapes.map((shape) => {
    const of = samples.filter((sample) => sample.shape === shape);
    const evals = of.map((sample) => sample.evalMs).sort((a, b) => a - b);
    const total = evals.reduce((sum, value) => sum + value, 0);
    return {
      shape,
      share: `${round((100 * of.length) / samples.length)}%`,
      "eval p50": round(percentile(evals, 50)),
      "eval p95": round(percentile(evals, 95)),
      "eval p99": round(percentile(evals, 99)),
      "eval max": round(evals[evals.length - 1]),
      "eval ms total": Math.round(total),
      "eval CPU ms total": Math.round(of.reduce((sum, sample) => sum + sample.cpuMs, 0)),
    };
  });
  console.table(rows);
  const evals = samples.map((sample) => sample.evalMs).sort((a, b) => a - b);
  const rowsMs = samples.map((sample) => sample.rowsMs).sort((a, b) => a - b);
  log(
    `all: eval p50 / p95 / p99 / max ${[50, 95, 99].map((p) => round(percentile(evals, p))).join(" / ")} / ${round(evals[evals.length - 1])} ms; ` +
      `eval total ${Math.round(evals.reduce((a, b) => a + b, 0))} ms (CPU ${Math.round(samples.reduce((sum, sample) => sum + sample.cpuMs, 0))} ms) of ${Math.round(wallMs)} ms wall; ` +
      `page rows p50 / p99 ${round(percentile(rowsMs, 50))} / ${round(percentile(rowsMs, 99))} ms`,
  );
  const pauses = gcPauses.slice(gcBefore).sort((a, b) => a - b);
  log(
    `GC: ${pauses.length} pauses over ${samples.length} requests, total ${Math.round(pauses.reduce((a, b) => a + b, 0))} ms, p50 / max ${round(percentile(pauses, 50))} / ${round(pauses[pauses.length - 1] ?? 0)} ms`,
  );
  log(
    `event loop delay p99 / max ${round(loop.percentile(99) / 1e6)} / ${round(loop.max / 1e6)} ms`,
  );
  log("slowest 1% (eval):");
  const slowest = [...samples].sort((a, b) => b.evalMs - a.evalMs).slice(0, samples.length / 100);
  const byShape = new Map<string, number>();
  for (const sample of slowest) byShape.set(sample.shape, (byShape.get(sample.shape) ?? 0) + 1);
  log(`  by shape: ${[...byShape].map(([shape, n]) => `${shape} ${n}`).join(", ")}`);
  for (const sample of slowest.slice(0, 25))
    log(`  ${round(sample.evalMs)} ms ${sample.shape} hits=${sample.hits} ${sample.path}`);
  await client.end();
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
