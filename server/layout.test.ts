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

  it("refuses a query outside a store, and allows it in one (ADR 0103)", async () => {
    const lint = async (file: string, text: string) => {
      const [result] = await new ESLint({ cwd: root }).lintText(text, {
        filePath: path.join(root, file),
      });
      return result.messages.map((message) => message.ruleId);
    };
    const queries = [
      "export const a = (db: any) => db.item.findMany({});",
      "export const b = (ctx: any) => ctx.db.checkout.updateMany({});",
      "export const c = (db: any) => db().order.count();",
      "export const d = (tx: any) => tx.$queryRaw`SELECT 1`;",
      "export const e = (sql: any) => sql.$executeRaw`UPDATE items SET id = id`;",
      "export const f = (db: any) => db.$transaction(async () => 1);",
      'import { rawPool } from "../platform/db";\nexport const g = () => rawPool().query("SELECT 1");',
    ];
    for (const query of queries)
      expect(await lint("server/example/use-case.ts", query)).toContain("no-restricted-syntax");
    expect(await lint("server/example/use-case.ts", 'import pg from "pg";\n')).toContain(
      "no-restricted-imports",
    );
    for (const store of ["server/example/store.ts", "server/example/store/orders.ts"])
      expect(
        (await lint(store, `${queries.join("\n")}\nimport pg from "pg";\n`)).filter((rule) =>
          rule?.startsWith("no-restricted"),
        ),
      ).toEqual([]);
    // A store call, and a Map's delete or a Stripe client's create, are not queries.
    expect(
      await lint(
        "server/example/use-case.ts",
        [
          "declare const findQuote: (db: unknown, id: string) => unknown;",
          "type Stripe = { paymentIntents: { create: (body: object) => unknown } };",
          "export const h = (db: unknown, seen: Map<string, number>, stripe: Stripe) => [",
          "  findQuote(db, 'q'), seen.delete('q'), stripe.paymentIntents.create({}),",
          "];",
        ].join("\n"),
      ),
    ).toEqual([]);
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
