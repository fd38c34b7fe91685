// Adds up the JSON reports into one line: "N passed, N failed[, N skipped]". Arguments: report
// files, each a Vitest report (the whole suite, then the integration tier again under Node 24) or
// the Playwright report (it has `stats`). A report that is missing counts as one failure, so a
// runner that never started cannot look green.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;

for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    console.error(`missing ${path}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(path, "utf8"));
  if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  } else {
    passed += report.numPassedTests;
    failed +=
      report.numFailedTests +
      (report.numFailedTestSuites
        ? report.testResults.filter((r) => r.status === "failed" && r.assertionResults.length === 0)
            .length
        : 0);
    skipped += report.numPendingTests + report.numTodoTests;
  }
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 ? 1 : 0;
