import { describe, expect, it } from "vitest";
import { availableVariant, chooseSize, normalizeSize, sizeKeys } from "./sizes";

describe("normalizeSize", () => {
  it.each([
    ["MD", "M"],
    ["Medium", "M"],
    ["med", "M"],
    ["M", "M"],
    ["Small", "S"],
    ["SM", "S"],
    ["X-Small", "XS"],
    ["XS", "XS"],
    ["LG", "L"],
    ["Large", "L"],
    ["XL", "XL"],
    ["X-Large", "XL"],
    ["2XL", "XXL"],
    ["One Size", "One Size"],
    ["O/S", "One Size"],
    ["8", "8"],
    ["US 8", "8"],
    ["EU 38", "38"],
    ["9.5", "9.5"],
    ["US 9.5", "9.5"],
    ["28x32", "28x32"],
    ["28 x 32", "28x32"],
    ["W28 L32", "28x32"],
    ["W28/L32", "28x32"],
  ])("%s -> %s", (label, key) => expect(normalizeSize(label)).toBe(key));

  it("keeps an unknown spelling as listed", () =>
    expect(normalizeSize(" Petite 2P ")).toBe("Petite 2P"));
  it("dedupes keys", () => expect(sizeKeys(["MD", "M", "Medium", "L"])).toEqual(["M", "L"]));
});

describe("chooseSize", () => {
  const variants = (...sizes: (string | null)[]) =>
    sizes.map((size, id) => ({ id, size, quantity: 1 }));
  const ids = (
    choice: ReturnType<typeof chooseSize<{ id: number; size: string | null; quantity: number }>>,
  ) => ("variants" in choice ? choice.variants.map((variant) => variant.id) : choice);

  it("one variant, or one size in several spellings, needs no size", () => {
    expect(ids(chooseSize(variants(null), {}))).toEqual([0]);
    expect(ids(chooseSize(variants("OS", "One Size"), {}))).toEqual([0, 1]);
  });
  it("several sizes: the one saved size among them (saved sizes as typed), both spellings", () => {
    expect(
      ids(chooseSize(variants("XS", "XXL", "Med", "MD"), { savedSizes: ["medium", "10"] })),
    ).toEqual([2, 3]);
  });
  it("several sizes and none or several saved among them: required, listing the sizes as listed", () => {
    expect(chooseSize(variants("XS", "XXL", "Med", "MD"), { savedSizes: [] })).toEqual({
      required: "XS, XXL, Med, MD",
    });
    expect(chooseSize(variants("XS", "XXL", "Med", "MD"), { savedSizes: ["XS", "M"] })).toEqual({
      required: "XS, XXL, Med, MD",
    });
  });
  it("an explicit size: its spellings, the exact one first; one the item lacks is notASize", () => {
    expect(
      ids(chooseSize(variants("XS", "Med", "MD"), { size: "MD", savedSizes: ["XS"] })),
    ).toEqual([2, 1]);
    expect(ids(chooseSize(variants("XS", "Med", "MD"), { size: "medium" }))).toEqual([1, 2]);
    expect(chooseSize(variants("XS", "M"), { size: "XL" })).toEqual({ notASize: "XS, M" });
  });
  it("availableVariant takes the first with enough left, else the first", () => {
    expect(
      availableVariant(
        [
          { id: 1, quantity: 0 },
          { id: 2, quantity: 1 },
        ],
        1,
      ).id,
    ).toBe(2);
    expect(
      availableVariant(
        [
          { id: 1, quantity: 0 },
          { id: 2, quantity: 0 },
        ],
        1,
      ).id,
    ).toBe(1);
  });
});
