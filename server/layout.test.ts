/**
 * The codebase's layout rules, checked as part of `npm test` (and by `npm run lint`): ESLint finds no
 * error, Prettier formats the tree, and dependency-cruiser finds no import against the layers
 * (.dependency-cruiser.cjs: edges -> capabilities -> platform -> core, a capability through its
 * index.ts, no cycle between modules or folders).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const run = promisify(execFile);
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

/** dependency-cruiser's JSON verdict on `folders` under `cwd`, with this repository's rules. */
const cruise = async (cwd: string, folders: string[]) => {
  const { stdout } = await run(
    bin("depcruise"),
    [...folders, "--config", path.join(root, ".dependency-cruiser.cjs"), "--output-type", "json"],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const result = JSON.parse(stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
};

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

  it("is formatted by Prettier", async () => {
    const { stdout, stderr } = await run(bin("prettier"), ["--check", ".", "--log-level", "warn"], {
      cwd: root,
    }).catch((error: { stdout: string; stderr: string }) => error);
    expect(`${stdout}${stderr}`.trim()).toBe("");
  }, 120_000);

  it("has every import looking down the layers, and no cycle", async () => {
    expect(await cruise(root, ["server", "app", "emails"])).toEqual([]);
  }, 120_000);

  it("reports an import up the layers, into a capability's insides, and a cycle", async () => {
    const probe = mkdtempSync(path.join(tmpdir(), "layout-"));
    const file = (name: string, text: string) => {
      mkdirSync(path.dirname(path.join(probe, name)), { recursive: true });
      writeFileSync(path.join(probe, name), text);
    };
    file("tsconfig.json", JSON.stringify({ compilerOptions: { moduleResolution: "bundler" } }));
    file("server/platform/db.ts", 'import { a } from "../purchases";\nexport const db = a;\n');
    file("server/purchases/index.ts", 'export { a } from "./hold";\n');
    file(
      "server/purchases/hold.ts",
      'import { c } from "../checkout/quote";\nexport const a = c;\n',
    );
    file("server/checkout/quote.ts", 'import { db } from "../platform/db";\nexport const c = 1;\n');
    try {
      const found = await cruise(probe, ["server"]);
      expect(found).toContain(
        "platform-looks-down: server/platform/db.ts -> server/purchases/index.ts",
      );
      expect(found).toContain(
        "through-the-index: server/purchases/hold.ts -> server/checkout/quote.ts",
      );
      expect(found.some((line) => line.startsWith("no-cycles:"))).toBe(true);
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  }, 60_000);
});
