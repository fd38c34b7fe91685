/**
 * The reference's totals rule as a property over random carts: for every store and overall,
 * subtotal - discount + shipping + tax = grand_total exactly, whatever the destination, prices,
 * quantities, rates, free-shipping threshold and chosen option.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sumCents } from "./money";
import { priceParcel } from "./parcel-pricing";
import { provinceCodes } from "./provinces";
import { addTotals, totalsBalance } from "./totals";

const rate = fc.record({
  key: fc.stringMatching(/^[a-z]{1,8}$/),
  label: fc.constant("Service"),
  baseCents: fc.integer({ min: 0, max: 10_000 }),
  perItemCents: fc.integer({ min: 0, max: 2_000 }),
  remoteSurchargeCents: fc.integer({ min: 0, max: 5_000 }),
  minDays: fc.integer({ min: 1, max: 5 }),
  maxDays: fc.integer({ min: 5, max: 15 }),
});

const parcel = fc.record({
  lines: fc.array(
    fc.record({
      unitPriceCents: fc.integer({ min: 1, max: 5_000_000 }),
      quantity: fc.integer({ min: 1, max: 5 }),
    }),
    { minLength: 1, maxLength: 8 },
  ),
  rates: fc.uniqueArray(rate, { minLength: 2, maxLength: 4, selector: (r) => r.key }),
  freeShippingThresholdCents: fc.option(fc.integer({ min: 0, max: 500_000 }), { nil: null }),
  choice: fc.nat(),
});

const cart = fc.record({
  destination: fc.constantFrom(...provinceCodes),
  now: fc.date({
    min: new Date("2013-04-02T00:00:00Z"),
    max: new Date("2030-12-31T00:00:00Z"),
    noInvalidDate: true,
  }),
  parcels: fc.array(parcel, { minLength: 1, maxLength: 5 }),
});

describe("totals rule over random carts", () => {
  it("holds per store, per option and overall, with tax lines adding up to tax", () => {
    fc.assert(
      fc.property(cart, ({ destination, now, parcels }) => {
        const chosen = parcels.map((input) => {
          const priced = priceParcel({ ...input, destination, now });
          for (const option of priced.options) {
            expect(totalsBalance(option.totals)).toBe(true);
            expect(sumCents(option.taxLines.map((line) => line.amountCents))).toBe(
              option.totals.taxCents,
            );
            expect(option.totals.subtotalCents).toBe(
              sumCents(input.lines.map((line) => line.unitPriceCents * line.quantity)),
            );
            expect(option.amountCents).toBeGreaterThanOrEqual(0);
          }
          expect(priced.options.filter((option) => option.isCheapest)).toHaveLength(1);
          return priced.options[input.choice % priced.options.length].totals;
        });
        const overall = addTotals(chosen);
        expect(totalsBalance(overall)).toBe(true);
        expect(overall.grandTotalCents).toBe(
          sumCents(chosen.map((totals) => totals.grandTotalCents)),
        );
      }),
      { numRuns: 500 },
    );
  });
});
