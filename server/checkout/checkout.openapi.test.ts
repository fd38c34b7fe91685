/** The checkout operations in the OpenAPI document: the required Idempotency-Key and the refusals. */
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../edges/rest/openapi";

describe("checkout in the OpenAPI document", () => {
  it("POST /checkout/sessions requires Idempotency-Key and documents 201, 409 and 422", () => {
    const operation = openApiDocument().paths!["/checkout/sessions"]!.post!;
    const header = operation.parameters!.find(
      (parameter) => "name" in parameter && parameter.name === "Idempotency-Key",
    );
    expect(header).toMatchObject({ in: "header", required: true });
    expect(Object.keys(operation.responses!)).toEqual(
      expect.arrayContaining(["201", "409", "413", "415", "422"]),
    );
  });

  it("documents quotes, checkout reads and cancels, /me/orders and the sandbox helpers", () => {
    const paths = Object.keys(openApiDocument().paths!);
    for (const path of [
      "/checkout/quotes",
      "/checkout/sessions/{checkout_id}",
      "/checkout/sessions/{checkout_id}/cancel",
      "/me/orders",
      "/sandbox/orders/{order}/ship",
      "/sandbox/checkouts/{checkout_id}/expire",
    ]) {
      expect(paths).toContain(path);
    }
  });
});
