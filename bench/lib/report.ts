/**
 * Prints a result table and writes the JSON record to bench/results/<name>.json, or to
 * BENCH_RESULTS_DIR when set (bench/compare.ts sends its rounds there, so the committed figures stay).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const resultsDir = () => process.env.BENCH_RESULTS_DIR ?? path.resolve(__dirname, "..", "results");

export type Row = Record<string, string | number | null>;

/** The value at fraction `p` (0.95 for p95) of `values`, nearest rank; the values are not changed. */
export const percentile = (values: readonly number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/** A plain-text table: one line per row, columns padded. */
export const printTable = (title: string, rows: Row[]) => {
  if (!rows.length) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown) => (value === null || value === undefined ? "-" : String(value));
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => cell(row[column]).length)),
  );
  const line = (values: string[]) => values.map((value, i) => value.padEnd(widths[i])).join("  ");
  console.log(`\n${title}`);
  console.log(line(columns));
  console.log(line(widths.map((width) => "-".repeat(width))));
  for (const row of rows) console.log(line(columns.map((column) => cell(row[column]))));
};

/**
 * Writes `record` as bench/results/<name>.json and returns the path. A run with LEAN_API=off (every
 * request through Next, for before/after comparisons) is written as <name>-next-only.json.
 */
export const writeResult = (name: string, record: unknown) => {
  mkdirSync(resultsDir(), { recursive: true });
  const file = path.join(
    resultsDir(),
    `${name}${process.env.LEAN_API === "off" ? "-next-only" : ""}.json`,
  );
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
};

/** a / b rounded, or null when either is missing. */
export const ratio = (a: number | null | undefined, b: number | null | undefined) =>
  a === null ||
  a === undefined ||
  b === null ||
  b === undefined ||
  b === 0 ||
  !Number.isFinite(a) ||
  !Number.isFinite(b)
    ? null
    : Math.round((a / b) * 100) / 100;
