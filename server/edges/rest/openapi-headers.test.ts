/**
 * The document declares the response headers the service sends on /api/v1 (DESIGN.md "Headers"),
 * once in components.headers, referenced from each operation's responses.
 */
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";
import { operations } from "./operations";
import { isIdempotent } from "./openapi-headers";

type Response = { headers?: Record<string, { $ref?: string }> };
type Operation = { responses: Record<string, Response> };
type Document = {
  components: { headers?: Record<string, { description?: string; schema?: unknown }> };
  paths: Record<string, Record<string, Operation>>;
};

const document = () => openApiDocument() as unknown as Document;
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const everyResponse = (doc: Document) =>
  operations.map((entry) => ({
    entry,
    responses: Object.entries(doc.paths[entry.path][entry.method.toLowerCase()].responses),
  }));

/** On every response; Deprecation, Sunset and Link are sent while the operation is deprecated (live). */
const always = [
  "X-Request-Id",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
  "Deprecation",
  "Sunset",
  "Link",
];

describe("response headers in the OpenAPI document", () => {
  it("declares each header once, in components, with a description and a schema", () => {
    const declared = document().components.headers ?? {};
    for (const name of [...always, "Retry-After", "WWW-Authenticate", "Idempotent-Replayed"]) {
      expect(declared[name], name).toMatchObject({
        description: expect.any(String),
        schema: expect.any(Object),
      });
    }
  });

  it("every response of every operation references X-Request-Id, the RateLimit headers and the deprecation headers", () => {
    for (const { entry, responses } of everyResponse(document()))
      for (const [status, response] of responses)
        for (const name of always)
          expect(response.headers?.[name], `${entry.id} ${status} ${name}`).toEqual(ref(name));
  });

  it("401 carries WWW-Authenticate; 429 and 503 Retry-After; an idempotent operation's 409 Retry-After and its answers Idempotent-Replayed", () => {
    let idempotent = 0;
    for (const { entry, responses } of everyResponse(document())) {
      const byStatus = Object.fromEntries(responses);
      expect(byStatus[401].headers?.["WWW-Authenticate"], entry.id).toEqual(
        ref("WWW-Authenticate"),
      );
      for (const status of [429, 503])
        expect(byStatus[status].headers?.["Retry-After"], `${entry.id} ${status}`).toEqual(
          ref("Retry-After"),
        );
      if (!isIdempotent(entry)) continue;
      idempotent += 1;
      expect(byStatus[409].headers?.["Retry-After"], entry.id).toEqual(ref("Retry-After"));
      expect(byStatus[entry.status].headers?.["Idempotent-Replayed"], entry.id).toEqual(
        ref("Idempotent-Replayed"),
      );
    }
    expect(idempotent).toBeGreaterThanOrEqual(2);
  });
});
