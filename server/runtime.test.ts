/**
 * The Node.js running the tests is a supported line (package.json `engines`: 20.19+ and 24), and
 * in CI's second run it is Node 24: `.ci/run` sets EXPECT_NODE_MAJOR=24 and puts .ci/node24's node
 * first on PATH, so this fails if vitest or its workers quietly ran on another node.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const engines = JSON.parse(readFileSync(path.resolve(__dirname, "..", "package.json"), "utf8"))
  .engines.node as string;

/** Whether `version` satisfies `range` of the form "^20.19.0 || ^24.0.0" (the only form engines uses). */
const satisfiesCaretRanges = (version: string, range: string) => {
  const [major, minor] = version.split(".").map(Number);
  return range.split("||").some((part) => {
    const match = /^\s*\^(\d+)\.(\d+)\.\d+\s*$/.exec(part);
    if (!match) throw new Error(`engines.node part "${part}" is not a caret range`);
    return major === Number(match[1]) && minor >= Number(match[2]);
  });
};

describe("runtime", () => {
  it("states the supported lines, 20.19+ and 24, in engines", () => {
    expect(engines).toBe("^20.19.0 || ^24.0.0");
    expect(satisfiesCaretRanges("24.0.0", engines)).toBe(true);
    expect(satisfiesCaretRanges("20.18.3", engines)).toBe(false);
    expect(satisfiesCaretRanges("22.12.0", engines)).toBe(false);
  });

  it("runs on a supported Node.js (Node 24 in CI's second run)", () => {
    expect(satisfiesCaretRanges(process.versions.node, engines)).toBe(true);
    if (process.env.EXPECT_NODE_MAJOR)
      expect(process.versions.node.split(".")[0]).toBe(process.env.EXPECT_NODE_MAJOR);
  });

  it("names, for CI's Node 24 run, test files that exist (.ci/node24/tests.txt)", () => {
    const root = path.resolve(__dirname, "..");
    const listed = readFileSync(path.join(root, ".ci", "node24", "tests.txt"), "utf8")
      .split("\n")
      .filter((line) => line.trim() && !line.startsWith("#"));
    expect(listed).toContain("server/runtime.test.ts");
    expect(listed.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });
});
