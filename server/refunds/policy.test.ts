/**
 * Refund arithmetic (docs/adr/0107): over random store orders, fees and sequences of partial
 * refunds, every refund row gives back exactly its amount (net + fee = -amount), the stores' nets
 * plus the platform's fees always equal what the person paid minus what was refunded, and a full
 * refund, in any number of steps, reverses the sale exactly (fee included).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storeShare } from "../payouts";
import { refundRefusal, refundShare, splitRefunded } from "./policy";

const sale = fc
  .record({
    subtotalCents: fc.integer({ min: 0, max: 2_000_000 }),
    shippingCents: fc.integer({ min: 0, max: 10_000 }),
    taxCents: fc.integer({ min: 0, max: 300_000 }),
    discountShare: fc.integer({ min: 0, max: 100 }),
    feeBps: fc.integer({ min: 0, max: 10_000 }),
  })
  .map(({ discountShare, feeBps, ...order }) =>
    storeShare(
      { ...order, discountCents: Math.floor((order.subtotalCents * discountShare) / 100) },
      feeBps,
    ),
  );

/** A sale and a sequence of refunds that never exceed what it brought (the last may finish it). */
const saleWithRefunds = sale.chain((share) => {
  const paid = share.itemsCents + share.shippingCents + share.taxCents;
  return fc
    .record({
      cuts: fc.array(fc.integer({ min: 1, max: 1_000 }), { maxLength: 6 }),
      finish: fc.boolean(),
    })
    .map(({ cuts, finish }) => {
      const amounts: number[] = [];
      let left = paid;
      for (const cut of cuts) {
        const amount = Math.min(left, Math.max(1, Math.floor((paid * cut) / 3_000)));
        if (amount <= 0) break;
        amounts.push(amount);
        left -= amount;
      }
      if (finish && left > 0) amounts.push(left);
      return { share, paid, amounts };
    });
});

describe("a refund's share", () => {
  it("adds up: net + fee is minus the amount; nets + fees are paid minus refunded", () => {
    fc.assert(
      fc.property(saleWithRefunds, ({ share, paid, amounts }) => {
        let refunded = 0;
        let total = share.netCents + share.feeCents;
        for (const amountCents of amounts) {
          const row = refundShare(share, { refundedBeforeCents: refunded, amountCents });
          expect(row.netCents + row.feeCents).toBe(-amountCents);
          expect(row.itemsCents + row.shippingCents + row.taxCents).toBe(-amountCents);
          refunded += amountCents;
          total += row.netCents + row.feeCents;
          expect(total).toBe(paid - refunded);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a full refund, in one step or many, reverses the sale exactly, fee included", () => {
    fc.assert(
      fc.property(saleWithRefunds, ({ share, paid, amounts }) => {
        const steps = amounts.reduce((sum, amount) => sum + amount, 0) === paid ? amounts : [paid];
        if (paid === 0) return;
        let refunded = 0;
        const sums = { itemsCents: 0, shippingCents: 0, taxCents: 0, feeCents: 0, netCents: 0 };
        for (const amountCents of steps) {
          const row = refundShare(share, { refundedBeforeCents: refunded, amountCents });
          for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += row[key];
          refunded += amountCents;
        }
        // 0 - x, not -x: the ledger never holds a negative zero.
        expect(sums).toEqual({
          itemsCents: 0 - share.itemsCents,
          shippingCents: 0 - share.shippingCents,
          taxCents: 0 - share.taxCents,
          feeCents: 0 - share.feeCents,
          netCents: 0 - share.netCents,
        });
      }),
      { numRuns: 500 },
    );
  });

  it("splits in proportion, by largest remainder, never past a part", () => {
    expect(splitRefunded({ itemsCents: 8000, shippingCents: 1000, taxCents: 1000 }, 1000)).toEqual({
      itemsCents: 800,
      shippingCents: 100,
      taxCents: 100,
    });
    expect(splitRefunded({ itemsCents: 1, shippingCents: 1, taxCents: 1 }, 2)).toEqual({
      itemsCents: 1,
      shippingCents: 1,
      taxCents: 0,
    });
    expect(splitRefunded({ itemsCents: 0, shippingCents: 0, taxCents: 0 }, 0)).toEqual({
      itemsCents: 0,
      shippingCents: 0,
      taxCents: 0,
    });
  });

  it("refuses more than is left, nothing, and an order refunded in full", () => {
    expect(refundRefusal({ paidCents: 1000, refundedCents: 0, amountCents: 1000 })).toBeNull();
    expect(refundRefusal({ paidCents: 1000, refundedCents: 400, amountCents: 601 })).toMatch(
      /more than what is left/,
    );
    expect(refundRefusal({ paidCents: 1000, refundedCents: 0, amountCents: 0 })).toMatch(
      /more than 0.00/,
    );
    expect(refundRefusal({ paidCents: 1000, refundedCents: 1000, amountCents: 1 })).toMatch(
      /already refunded in full/,
    );
  });
});
