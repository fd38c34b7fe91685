import { describe, expect, it } from "vitest";
import { purchaseRefusal, type SpendingSettings } from "./spending-limits";

const set: SpendingSettings = {
  limitPerOrderCents: 50_000,
  limitPer30DaysCents: 200_000,
  isPaused: false,
  pausedChangedAt: null,
};

describe("purchaseRefusal", () => {
  it("refuses without both limits, then when paused, and admits otherwise", () => {
    expect(purchaseRefusal({ ...set, limitPerOrderCents: null })).toBe("spending_limit_not_set");
    expect(purchaseRefusal({ ...set, limitPer30DaysCents: null, isPaused: true })).toBe(
      "spending_limit_not_set",
    );
    expect(purchaseRefusal({ ...set, isPaused: true })).toBe("purchases_paused");
    expect(purchaseRefusal(set)).toBeNull();
  });
});
