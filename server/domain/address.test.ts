import { describe, expect, it } from "vitest";
import { normalizePostalCode, postalCodeMatchesProvince, provinceCodes } from "./address";

describe("Canadian postal codes", () => {
  it.each([
    ["k1a0b1", "K1A 0B1"],
    ["K1A 0B1", "K1A 0B1"],
    [" m5v-3l9 ", "M5V 3L9"],
    ["H2X  1Y4", "H2X 1Y4"],
    ["X0A 0H0", "X0A 0H0"],
  ])("normalises %s to %s", (input, expected) => {
    expect(normalizePostalCode(input)).toBe(expected);
  });

  it.each(["12345", "K1A 0B", "D1A 0B1", "W1A 0B1", "Z1A 0B1", "K1O 0B1", "K1A 0BU", "K1A0B1X", "", "KIA OBI"])("refuses %s", (input) => {
    expect(normalizePostalCode(input)).toBeUndefined();
  });

  it("knows all 13 provinces and territories", () => {
    expect(provinceCodes).toHaveLength(13);
  });

  it("checks the first letter against the province", () => {
    expect(postalCodeMatchesProvince("M5V 3L9", "ON")).toBe(true);
    expect(postalCodeMatchesProvince("H2X 1Y4", "QC")).toBe(true);
    expect(postalCodeMatchesProvince("X0A 0H0", "NU")).toBe(true);
    expect(postalCodeMatchesProvince("X1A 2B3", "NT")).toBe(true);
    expect(postalCodeMatchesProvince("M5V 3L9", "BC")).toBe(false);
    expect(postalCodeMatchesProvince("V6B 1A1", "BC")).toBe(true);
  });
});
