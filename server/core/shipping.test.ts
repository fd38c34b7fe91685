/** Shipping options, the remote surcharge, delivery estimates and the free-shipping threshold edges. */
import { describe, expect, it } from "vitest";
import { addBusinessDays } from "./business-days";
import { freeShippingOffer, type ShippingRate, shippingOptions } from "./shipping";

const rates: ShippingRate[] = [
  {
    key: "express",
    label: "Express",
    baseCents: 2495,
    perItemCents: 500,
    remoteSurchargeCents: 3000,
    minDays: 1,
    maxDays: 2,
  },
  {
    key: "standard",
    label: "Regular",
    baseCents: 995,
    perItemCents: 250,
    remoteSurchargeCents: 1500,
    minDays: 4,
    maxDays: 9,
  },
];
// A Friday afternoon in Toronto.
const now = new Date("2026-11-20T19:00:00Z");

describe("shipping options", () => {
  it("base + per item after the first, cheapest first and marked", () => {
    const options = shippingOptions({ rates, itemCount: 3, province: "ON", offer: null, now });
    expect(options.map((option) => [option.key, option.amountCents, option.isCheapest])).toEqual([
      ["standard", 1495, true],
      ["express", 3495, false],
    ]);
  });

  it("adds the remote surcharge and days to each territory only", () => {
    for (const province of ["YT", "NT", "NU"] as const) {
      const [standard] = shippingOptions({ rates, itemCount: 1, province, offer: null, now });
      expect(standard.amountCents).toBe(995 + 1500);
      expect([standard.delivery.minDays, standard.delivery.maxDays]).toEqual([6, 13]);
    }
    expect(
      shippingOptions({ rates, itemCount: 1, province: "BC", offer: null, now })[0].amountCents,
    ).toBe(995);
  });

  it("estimates delivery in business days from the destination's today", () => {
    const [standard, express] = shippingOptions({
      rates,
      itemCount: 1,
      province: "ON",
      offer: null,
      now,
    });
    expect(express.delivery).toEqual({
      minDays: 1,
      maxDays: 2,
      earliest: "2026-11-23",
      latest: "2026-11-24",
    });
    expect(standard.delivery.earliest).toBe("2026-11-26");
    expect(addBusinessDays("2026-11-21", 1)).toBe("2026-11-23"); // Saturday + 1 = Monday
  });

  it("ties are broken by service key so the cheapest is stable", () => {
    const same = rates.map((rate) => ({
      ...rate,
      baseCents: 1000,
      perItemCents: 0,
      remoteSurchargeCents: 0,
    }));
    expect(
      shippingOptions({ rates: same, itemCount: 1, province: "ON", offer: null, now })
        .filter((option) => option.isCheapest)
        .map((option) => option.key),
    ).toEqual(["express"]);
  });
});

describe("free-shipping threshold", () => {
  it.each([
    [9999, false, 1],
    [10000, true, 0],
    [10001, true, 0],
    [0, false, 10000],
  ])("subtotal %i against 100.00: qualifies %s, %i more", (subtotal, qualifies, remaining) => {
    expect(freeShippingOffer(10000, subtotal)).toEqual({
      thresholdCents: 10000,
      qualifies,
      remainingCents: remaining,
    });
  });

  it("no offer is null, and a zero threshold always qualifies", () => {
    expect(freeShippingOffer(null, 5000)).toBeNull();
    expect(freeShippingOffer(0, 0)?.qualifies).toBe(true);
  });

  it("qualifying makes only the cheapest service free; below it nothing is free", () => {
    const free = shippingOptions({
      rates,
      itemCount: 2,
      province: "ON",
      offer: freeShippingOffer(10000, 10000),
      now,
    });
    expect(
      free.map((option) => [option.key, option.amountCents, option.isFree, option.regularCents]),
    ).toEqual([
      ["standard", 0, true, 1245],
      ["express", 2995, false, 2995],
    ]);
    const paid = shippingOptions({
      rates,
      itemCount: 2,
      province: "ON",
      offer: freeShippingOffer(10000, 9999),
      now,
    });
    expect(
      paid.every((option) => !option.isFree && option.amountCents === option.regularCents),
    ).toBe(true);
  });
});
