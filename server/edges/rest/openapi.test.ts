/** The OpenAPI document, generated from the operation table (entries against paths: server/edges/rest/operations.test.ts). */
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1, each operation with its scope, and 413/415 where it reads a JSON body", () => {
    const document = openApiDocument();
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths!["/me/orders"]!.get!.security).toEqual([{ oauth2: ["orders:read"] }]);
    expect(Object.keys(document.paths!["/sandbox/orders/{order}/ship"]!.post!.responses!)).toEqual(
      expect.arrayContaining(["200", "413", "415", "422"]),
    );
    expect(document.paths!["/me"]!.get!.parameters).toBeUndefined();
  });

  it("describes the query bounds and the disjunctive facets", () => {
    const operation = openApiDocument().paths!["/products"]!.get!;
    const perPage = operation.parameters!.find(
      (parameter) => "name" in parameter && parameter.name === "per_page",
    );
    expect(JSON.stringify(perPage)).toContain('"maximum":48');
    expect(operation.description).toContain("every filter except its own");
  });

  it("marks every path parameter required, as OpenAPI demands", () => {
    const optional = Object.entries(openApiDocument().paths!).flatMap(([path, operations]) =>
      Object.values(operations ?? {}).flatMap((operation) =>
        (
          (operation as { parameters?: { in: string; name: string; required?: boolean }[] })
            .parameters ?? []
        )
          .filter((parameter) => parameter.in === "path" && parameter.required !== true)
          .map((parameter) => `${path} ${parameter.name}`),
      ),
    );
    expect(optional).toEqual([]);
  });
});
