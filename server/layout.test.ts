/**
 * The codebase's layout rules, checked as part of `npm test`: ESLint finds no error, including the
 * rule that keeps Prisma and the database inside the server shell (eslint.config.mjs).
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");

describe("layout", () => {
  it("lints clean", async () => {
    const results = await new ESLint({ cwd: root }).lintFiles(["."]);
    const problems = results.flatMap((result) =>
      result.messages
        .filter((message) => message.severity === 2)
        .map(
          (message) =>
            `${path.relative(root, result.filePath)}:${message.line} ${message.ruleId}: ${message.message}`,
        ),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it("refuses Prisma in a page", async () => {
    const [result] = await new ESLint({ cwd: root }).lintText(
      'import { db } from "@/server/platform/db";\nexport const x = db;\n',
      { filePath: path.join(root, "app", "example.tsx") },
    );
    expect(result.messages.map((message) => message.ruleId)).toContain("no-restricted-imports");
  });
});
