import { describe, expect, it } from "vitest";
import { formatCents, parseCents, toMoney } from "./money";

describe("money", () => {
  it("formats cents with two decimals", () => {
    expect(formatCents(0)).toBe("0.00");
    expect(formatCents(5)).toBe("0.05");
    expect(formatCents(1250)).toBe("12.50");
    expect(formatCents(-1999)).toBe("-19.99");
    expect(toMoney(123456)).toEqual({ amount: "1234.56", currency: "CAD" });
  });
  it("parses decimals without floating point", () => {
    expect(parseCents("12")).toBe(1200);
    expect(parseCents("12.5")).toBe(1250);
    expect(parseCents("0.29")).toBe(29);
    expect(parseCents("1099.99")).toBe(109999);
    expect(() => parseCents("1.234")).toThrow();
    expect(() => parseCents("-1")).toThrow();
  });
  it("round-trips every cent value in a range", () => {
    for (let cents = 0; cents < 20000; cents += 7)
      expect(parseCents(formatCents(cents))).toBe(cents);
  });
});
