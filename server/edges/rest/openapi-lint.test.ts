/**
 * The OpenAPI document passes `redocly lint` with its recommended rules (no error, no warning), and
 * its numbers show realistic examples on the reference page: every integer is bounded (0 or 1 up to
 * int4, never ±2^53) and Money shows "129.00".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";

type Node = Record<string, unknown>;

/** Every schema object in the document with its JSON pointer. */
const schemasOf = (node: unknown, pointer = ""): [string, Node][] => {
  if (Array.isArray(node))
    return node.flatMap((child, index) => schemasOf(child, `${pointer}/${index}`));
  if (!node || typeof node !== "object") return [];
  const entries = Object.entries(node as Node).flatMap(([key, child]) =>
    schemasOf(child, `${pointer}/${key}`),
  );
  return "type" in (node as Node) ? [[pointer, node as Node], ...entries] : entries;
};

describe("the OpenAPI document", () => {
  it("passes redocly lint (recommended rules) with no errors and no warnings", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
    try {
      const file = path.join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(openApiDocument()));
      const cli = path.join(process.cwd(), "node_modules", "@redocly", "cli", "bin", "cli.js");
      const run = () => {
        try {
          return execFileSync(
            process.execPath,
            [cli, "lint", file, "--extends=recommended", "--format=json"],
            {
              stdio: ["ignore", "pipe", "pipe"],
              env: {
                ...process.env,
                REDOCLY_TELEMETRY: "off",
                REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
              },
              maxBuffer: 64 * 1024 * 1024,
            },
          ).toString();
        } catch (error) {
          return String((error as { stdout: Buffer }).stdout); // errors exit non-zero; the report is the same JSON
        }
      };
      const output = run();
      const report = JSON.parse(output.slice(output.indexOf("{"))) as {
        totals: { errors: number; warnings: number };
        problems: {
          ruleId: string;
          severity: string;
          message: string;
          location: { pointer: string }[];
        }[];
      };
      expect(
        report.problems.map(
          (problem) =>
            `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
        ),
      ).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("bounds every integer (from 0 or 1 up to int4) and gives it an example; Money shows 129.00", () => {
    const document = JSON.parse(JSON.stringify(openApiDocument()));
    const integers = schemasOf(document).filter(([, schema]) => schema.type === "integer");
    expect(integers.length).toBeGreaterThan(20);
    const unbounded = integers.filter(
      ([, schema]) =>
        typeof schema.minimum !== "number" ||
        (schema.minimum as number) < 0 ||
        typeof schema.maximum !== "number" ||
        (schema.maximum as number) > 2_147_483_647,
    );
    expect(unbounded.map(([pointer]) => pointer)).toEqual([]);
    const componentIntegers = integers.filter(([pointer]) => pointer.startsWith("/components/"));
    expect(
      componentIntegers
        .filter(([, schema]) => schema.example === undefined)
        .map(([pointer]) => pointer),
    ).toEqual([]);
    expect(document.components.schemas.Money.properties.amount.example).toBe("129.00");
    expect(document.components.schemas.Money.example).toEqual({
      amount: "129.00",
      currency: "CAD",
    });
    // Whole-object examples where a partner reads numbers: they must add up as the API's own do.
    const totals = document.components.schemas.Totals.example as Record<string, { amount: string }>;
    const cents = (name: string) => Number(totals[name].amount.replace(".", ""));
    expect(cents("subtotal") - cents("discount") + cents("shipping") + cents("tax")).toBe(
      cents("grand_total"),
    );
  });
});
