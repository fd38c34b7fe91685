/** How a 422 names a field (ADR 0020), and how a page's form finds the input a field belongs to. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldName, fieldsByFormInput, zodFields } from "./zod-fields";

describe("fieldName", () => {
  it("joins keys with dots and names a list's element by its index", () => {
    expect(fieldName(["shipping_address", "postal_code"])).toBe("shipping_address.postal_code");
    expect(fieldName(["items", 1, "quantity"])).toBe("items[1].quantity");
    expect(fieldName(["metadata", 0, 0])).toBe("metadata[0][0]");
    expect(fieldName([])).toBe("");
  });

  it("is how a schema's 422 names the element of several that is wrong", () => {
    const schema = z.object({ items: z.array(z.object({ quantity: z.number().int().min(1) })) });
    const parsed = schema.safeParse({ items: [{ quantity: 1 }, { quantity: 0 }] });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(Object.keys(zodFields(parsed.error))).toEqual(["items[1].quantity"]);
  });
});

describe("fieldsByFormInput", () => {
  it("gives a list's one input the first of its elements' reasons, other fields as they are", () => {
    expect(
      fieldsByFormInput({
        "sizes[2]": "each size must be at most 20 characters",
        "sizes[0]": "is required",
        "method.exp_year": "the card has expired",
      }),
    ).toEqual({
      sizes: "each size must be at most 20 characters",
      "method.exp_year": "the card has expired",
    });
  });
});
