/**
 * .ci/summarize.mjs, the line CI ends with: it must fail whenever the run failed, also when every
 * test passed and something outside the tests did not (a CI run exited 1 under "2405 passed, 0
 * failed" and could not say why).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "ci-summary-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, body: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
};
/** A Vitest JSON report; `unloaded` files failed before any test ran (an import error). */
const vitestReport = (name: string, passed: number, failed = 0, unloaded = 0) =>
  write(name, {
    numPassedTests: passed,
    numFailedTests: failed,
    numFailedTestSuites: failed + unloaded,
    numPendingTests: 0,
    numTodoTests: 0,
    testResults: Array.from({ length: unloaded }, () => ({
      status: "failed",
      assertionResults: [],
    })),
  });
const summarize = (args: string[]) => {
  try {
    return {
      code: 0,
      out: execFileSync("node", [".ci/summarize.mjs", ...args], { encoding: "utf8" }),
    };
  } catch (error) {
    const { status, stdout } = error as { status: number; stdout: string };
    return { code: status, out: stdout };
  }
};

describe("the CI summary line", () => {
  it("adds up Vitest and Playwright reports, skipped apart", () => {
    const unit = vitestReport("unit.json", 10);
    write("unit.errors.json", { unhandledErrors: [] });
    const browser = write("pw.json", {
      stats: { expected: 4, flaky: 1, unexpected: 0, skipped: 2 },
      errors: [],
    });
    expect(summarize([unit, browser, "--exit", "npm test=0"])).toEqual({
      code: 0,
      out: "15 passed, 0 failed, 2 skipped\n",
    });
  });

  it("counts failed tests, and a test file that failed before any test ran", () => {
    const unit = vitestReport("red.json", 8, 2, 1);
    write("red.errors.json", { unhandledErrors: [] });
    expect(summarize([unit])).toEqual({ code: 1, out: "8 passed, 3 failed\n" });
  });

  it("counts an unhandled error outside any test, and prints it above the line", () => {
    const unit = vitestReport("stray.json", 10);
    write("stray.errors.json", {
      unhandledErrors: [
        { name: "Error", message: "left behind", stack: "Error: left behind\n    at a.ts:1" },
      ],
    });
    const { code, out } = summarize([unit]);
    expect(code).toBe(1);
    expect(out).toContain(
      "an unhandled error outside any test\n  Error: left behind\n      at a.ts:1",
    );
    expect(out.trim().split("\n").at(-1)).toBe("10 passed, 1 failed");
  });

  it("counts Playwright's errors outside any test, a missing report, and a step that failed with nothing counted", () => {
    const browser = write("pw-errors.json", {
      stats: { expected: 3, flaky: 0, unexpected: 0, skipped: 0 },
      errors: [{ message: "worker teardown timed out" }],
    });
    expect(summarize([browser]).out).toMatch(/worker teardown timed out\n3 passed, 1 failed\n$/);
    expect(summarize([join(dir, "none.json")]).out).toMatch(
      /missing .*none\.json\n0 passed, 1 failed\n$/,
    );

    const unit = vitestReport("clean.json", 5);
    write("clean.errors.json", { unhandledErrors: [] });
    const { code, out } = summarize([unit, "--exit", "knip=1", "--exit", "npm test=0"]);
    expect(code).toBe(1);
    expect(out).toBe("FAILED: knip exited 1 with no failed test counted\n5 passed, 1 failed\n");
  });
});
