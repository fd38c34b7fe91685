/** A 422's reasons in the API's words when a schema gave none of its own; a schema's own message wins. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodFields } from "./zod-fields";

const reasons = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("expected the input to be refused");
  return zodFields(parsed.error);
};

describe("the API's words for zod's issues", () => {
  const schema = z
    .object({
      name: z.string().max(5),
      tags: z.array(z.string()).min(1).max(2),
      count: z.number().int().min(1).max(10),
      ratio: z.number().gt(0),
      mode: z.enum(["notify", "buy"]),
      kind: z.literal("watch"),
      email: z.email(),
      link: z.url(),
      code: z.string().regex(/^[A-Z]+$/),
      owner: z.object({ id: z.string() }),
    })
    .strict();

  it("types, sizes, choices and formats", () => {
    expect(
      reasons(schema, {
        name: "too long",
        tags: [],
        count: 1.5,
        ratio: 0,
        mode: "maybe",
        kind: "alert",
        email: "nope",
        link: "nope",
        code: "abc",
        owner: [],
        extra: true,
      }),
    ).toEqual({
      name: "must be at most 5 characters",
      tags: "must not be empty",
      count: "must be a whole number",
      ratio: "must be more than 0",
      mode: "must be one of: notify, buy",
      kind: 'must be "watch"',
      email: "must be an email address",
      link: "must be a URL",
      code: "is not in the expected format",
      owner: "must be an object",
      extra: "is not a known field",
    });
    expect(reasons(schema, { tags: ["a", "b", "c"], count: 11, name: 3 })).toMatchObject({
      name: "must be a string",
      tags: "must have at most 2 items",
      count: "must be at most 10",
      mode: "is required",
      owner: "is required",
    });
    expect(reasons(schema, [])).toEqual({ body: "must be an object" });
  });

  it("a schema's own message is kept", () => {
    expect(reasons(z.object({ q: z.string().max(3, "must be short") }), { q: "long" })).toEqual({
      q: "must be short",
    });
  });
});
