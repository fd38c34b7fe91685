// Adds up the JSON reports into one line: "N passed, N failed[, N skipped]". Arguments: report
// files, each a Vitest report (the whole suite, then the integration tier again under Node 24) or
// the Playwright report (it has `stats`), and `--exit name=code` for each step .ci/run ran.
// A report that is missing counts as one failure, so a runner that never started cannot look green.
// Errors outside any test count too (Vitest's unhandled errors, in the `.errors.json` beside its
// report; Playwright's top-level `errors`), each printed above the line: they fail the run with
// every test passed, and the line must say so. A step that exited non-zero with nothing counted
// is one failure more, so the line and the exit code always agree.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const exits = [];
const reports = [];
for (let args = process.argv.slice(2); args.length;) {
  const arg = args.shift();
  if (arg === "--exit") exits.push(args.shift());
  else reports.push(arg);
}

const failure = (what, detail = "") => {
  console.log(
    `FAILED: ${what}${detail ? `\n  ${detail.split("\n").slice(0, 6).join("\n  ")}` : ""}`,
  );
  failed += 1;
};
const readJson = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined);

for (const path of reports) {
  const report = readJson(path);
  if (!report) {
    failure(`missing ${path}`);
    continue;
  }
  if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    for (const error of report.errors ?? [])
      failure(`${path}: an error outside any test`, error.stack ?? error.message ?? "");
    continue;
  }
  passed += report.numPassedTests;
  failed +=
    report.numFailedTests +
    (report.numFailedTestSuites
      ? report.testResults.filter((r) => r.status === "failed" && r.assertionResults.length === 0)
          .length
      : 0);
  skipped += report.numPendingTests + report.numTodoTests;
  const errorsPath = path.replace(/\.json$/, ".errors.json");
  const run = readJson(errorsPath);
  if (!run) failure(`missing ${errorsPath}`);
  for (const error of run?.unhandledErrors ?? [])
    failure(
      `${path}: an unhandled error outside any test`,
      error.stack ?? `${error.name}: ${error.message}`,
    );
}

if (failed === 0)
  for (const exit of exits) {
    const [name, code] = exit.split("=");
    if (code !== "0") failure(`${name} exited ${code} with no failed test counted`);
  }

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 ? 1 : 0;
