/** The OpenAPI document lists every REST route under app/api/v1, generated from the zod schemas. */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";

const apiRoot = path.resolve(__dirname, "..", "..", "app", "api", "v1");
const routeFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [path.relative(apiRoot, dir)] : [];
  });

// Routes that are not operations of the API itself.
const notOperations = new Set(["[...path]", "openapi.json"]);

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with every route under app/api/v1", () => {
    const document = openApiDocument();
    expect(document.openapi).toBe("3.1.0");
    const documented = Object.keys(document.paths ?? {});
    for (const route of routeFiles(apiRoot).filter((route) => !notOperations.has(route) && !route.startsWith("sandbox"))) {
      const openApiPath = `/${route.replace(/\[([^\]]+)\]/g, "{$1}")}`;
      expect(documented).toContain(openApiPath);
    }
  });

  it("describes the query bounds and the disjunctive facets", () => {
    const operation = openApiDocument().paths!["/products"]!.get!;
    const perPage = operation.parameters!.find((parameter) => "name" in parameter && parameter.name === "per_page");
    expect(JSON.stringify(perPage)).toContain('"maximum":48');
    expect(operation.description).toContain("every filter except its own");
  });
});
