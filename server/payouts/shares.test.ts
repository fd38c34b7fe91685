/**
 * The ledger's arithmetic (docs/adr/0106): for any multi-store payment and any fees, each store's
 * net plus the platform's fee is what the person paid that store, and all of them together are
 * what the person paid, to the cent.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { percentToBps, platformFee, storeShare, transferRetryDelayMs } from "./shares";

const order = fc
  .record({
    subtotalCents: fc.integer({ min: 0, max: 5_000_000 }),
    shippingCents: fc.integer({ min: 0, max: 10_000 }),
    taxCents: fc.integer({ min: 0, max: 800_000 }),
    discountShare: fc.integer({ min: 0, max: 100 }),
    feeBps: fc.integer({ min: 0, max: 10_000 }),
  })
  .map(({ discountShare, ...rest }) => ({
    ...rest,
    discountCents: Math.floor((rest.subtotalCents * discountShare) / 100),
  }));

describe("a store's share", () => {
  it("adds up to what the person paid, over random multi-store payments and fees", () => {
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 6 }), (orders) => {
        const paid = orders.reduce(
          (sum, o) => sum + o.subtotalCents - o.discountCents + o.shippingCents + o.taxCents,
          0,
        );
        const shares = orders.map((o) => storeShare(o, o.feeBps));
        for (const [index, share] of shares.entries()) {
          expect(Number.isInteger(share.feeCents)).toBe(true);
          expect(share.feeCents).toBeGreaterThanOrEqual(0);
          expect(share.feeCents).toBeLessThanOrEqual(share.itemsCents);
          expect(share.netCents).toBeGreaterThanOrEqual(0);
          expect(share.itemsCents).toBe(orders[index].subtotalCents - orders[index].discountCents);
        }
        expect(shares.reduce((sum, s) => sum + s.netCents + s.feeCents, 0)).toBe(paid);
      }),
      { numRuns: 500 },
    );
  });

  it("rounds the fee half up, once per order", () => {
    expect(platformFee(8999, 1250)).toBe(1125);
    expect(platformFee(1, 5000)).toBe(1);
    expect(platformFee(1, 4999)).toBe(0);
    expect(platformFee(12345, 0)).toBe(0);
    expect(platformFee(12345, 10_000)).toBe(12345);
    expect(() => platformFee(100, 10_001)).toThrow(RangeError);
    expect(() => platformFee(100, 1.5)).toThrow(RangeError);
  });

  it("reads a percent with at most two decimals into basis points, and nothing else", () => {
    expect(percentToBps("12.5")).toBe(1250);
    expect(percentToBps("0")).toBe(0);
    expect(percentToBps("100")).toBe(10_000);
    expect(percentToBps("7.25")).toBe(725);
    for (const bad of ["100.01", "-1", "1e2", "12.345", "", "abc", "0x10"])
      expect(percentToBps(bad)).toBeNull();
  });

  it("waits longer after each failed transfer, up to six hours", () => {
    expect(transferRetryDelayMs(1)).toBe(30_000);
    expect(transferRetryDelayMs(2)).toBe(60_000);
    expect(transferRetryDelayMs(40)).toBe(6 * 3_600_000);
  });
});
