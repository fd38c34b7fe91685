// Adds up the Vitest and Playwright JSON reports into one line: "N passed, N failed[, N skipped]".
// A report that is missing counts as one failure, so a runner that never started cannot look green.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const [vitestPath, playwrightPath] = process.argv.slice(2);

if (existsSync(vitestPath)) {
  const report = JSON.parse(readFileSync(vitestPath, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTestSuites ? report.testResults.filter((r) => r.status === "failed" && r.assertionResults.length === 0).length : 0);
  skipped += report.numPendingTests + report.numTodoTests;
} else {
  console.error(`missing ${vitestPath}`);
  failed += 1;
}

if (existsSync(playwrightPath)) {
  const { stats } = JSON.parse(readFileSync(playwrightPath, "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else {
  console.error(`missing ${playwrightPath}`);
  failed += 1;
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 ? 1 : 0;
