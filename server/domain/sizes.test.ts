import { describe, expect, it } from "vitest";
import { normalizeSize, sizeKeys } from "./sizes";

describe("normalizeSize", () => {
  it.each([
    ["MD", "M"], ["Medium", "M"], ["med", "M"], ["M", "M"],
    ["Small", "S"], ["SM", "S"], ["X-Small", "XS"], ["XS", "XS"],
    ["LG", "L"], ["Large", "L"], ["XL", "XL"], ["X-Large", "XL"], ["2XL", "XXL"],
    ["One Size", "One Size"], ["O/S", "One Size"],
    ["8", "8"], ["US 8", "8"], ["EU 38", "38"], ["9.5", "9.5"], ["US 9.5", "9.5"],
    ["28x32", "28x32"], ["28 x 32", "28x32"], ["W28 L32", "28x32"], ["W28/L32", "28x32"],
  ])("%s -> %s", (label, key) => expect(normalizeSize(label)).toBe(key));

  it("keeps an unknown spelling as listed", () => expect(normalizeSize(" Petite 2P ")).toBe("Petite 2P"));
  it("dedupes keys", () => expect(sizeKeys(["MD", "M", "Medium", "L"])).toEqual(["M", "L"]));
});
