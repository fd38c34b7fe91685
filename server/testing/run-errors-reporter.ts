/**
 * A Vitest reporter for CI that writes what the JSON report leaves out: the errors raised outside
 * any test (an unhandled rejection after a test ended, a worker that died).
 * Vitest exits 1 on such an error with every test passed, so without this file .ci/summarize.mjs
 * printed "N passed, 0 failed" for a red run and nobody could tell why.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Reporter } from "vitest/node";

export default class RunErrorsReporter implements Reporter {
  constructor(private readonly options: { outputFile: string }) {}

  onTestRunEnd: Reporter["onTestRunEnd"] = (_modules, unhandledErrors) => {
    mkdirSync(dirname(this.options.outputFile), { recursive: true });
    writeFileSync(
      this.options.outputFile,
      JSON.stringify({
        unhandledErrors: unhandledErrors.map((error) => ({
          name: error.name,
          message: error.message,
          stack: error.stack,
        })),
      }),
    );
  };
}
