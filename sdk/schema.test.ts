/** The generated types match the OpenAPI document the service serves; otherwise run `npm run sdk:generate`. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateTypes, schemaFile } from "./generate-types";
import { retryAfterMs } from "./client";

describe("sdk/schema.d.ts", () => {
  it("is what openapi-typescript generates from the current document (run npm run sdk:generate when this fails)", async () => {
    expect(
      readFileSync(schemaFile, "utf8") === (await generateTypes()),
      "sdk/schema.d.ts is stale: run npm run sdk:generate",
    ).toBe(true);
  });
});

describe("Retry-After", () => {
  it("reads seconds or an HTTP date, at most 60 s, 1 s when absent", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs("3600")).toBe(60_000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
  });
});
