/** The price watch's pure decisions: what an evaluation does before and after its quote, standing, recording, expiry. */
import { describe, expect, it } from "vitest";
import { maxLiveWatches } from "./states";
import {
  afterQuote,
  beforeQuote,
  expiryOutcome,
  liveWatchRefusal,
  purchaseRecord,
  type Standing,
  standingRefusal,
} from "./policy";

const now = new Date("2026-11-27T12:00:00Z");
const later = new Date("2026-11-28T12:00:00Z");
const watch = {
  expiresAt: later,
  itemStatus: "active",
  priceCents: 8_000,
  maxPriceCents: 8_000,
  overTotal: false,
  lostStanding: null,
};

describe("beforeQuote", () => {
  it("quotes a watch whose price is within max_price and whose standing holds", () => {
    expect(beforeQuote(watch, now)).toEqual({ next: "quote" });
  });

  it("expires a watch at or past its expiry, before anything else", () => {
    expect(beforeQuote({ ...watch, expiresAt: now, itemStatus: "sold" }, now)).toEqual({
      next: "expire",
      failed: "expired",
    });
  });

  it("ends it item_sold when the item is no longer active", () => {
    const sold = { next: "end_sold", failed: "item_available" };
    expect(beforeQuote({ ...watch, itemStatus: "sold" }, now)).toEqual(sold);
    expect(beforeQuote({ ...watch, itemStatus: "removed" }, now)).toEqual(sold);
  });

  it("waits while the price is over max_price, clearing the over-total mark if set", () => {
    expect(beforeQuote({ ...watch, priceCents: 8_001 }, now)).toEqual({
      next: "wait",
      failed: "max_price",
    });
    expect(beforeQuote({ ...watch, priceCents: 8_001, overTotal: true }, now)).toEqual({
      next: "set_over_total",
      overTotal: false,
      failed: "max_price",
    });
  });

  it("ends a watch whose standing is gone, but only once the price is within max_price", () => {
    const lost = { ...watch, lostStanding: "purchases_paused" as const };
    expect(beforeQuote(lost, now)).toEqual({
      next: "end",
      outcome: "purchases_paused",
      failed: "purchases_paused",
    });
    expect(beforeQuote({ ...lost, priceCents: 9_000 }, now)).toEqual({
      next: "wait",
      failed: "max_price",
    });
  });
});

describe("afterQuote", () => {
  const limits = { maxPriceCents: 8_000, maxTotalCents: 10_000 };
  const quote = { quoteId: "quo_1", unitPriceCents: 8_000, grandTotalCents: 10_000 };

  it("claims with the quote when its price and total are within the watch's", () => {
    expect(afterQuote(limits, quote)).toEqual({ next: "claim", quoteId: "quo_1" });
  });

  it("ends the watch when there is no address, and item_sold when nothing is left", () => {
    expect(afterQuote(limits, { ended: "address_not_on_file" })).toEqual({
      next: "end",
      outcome: "address_not_on_file",
      failed: "saved_address",
    });
    expect(afterQuote(limits, { ended: "item_sold" })).toEqual({
      next: "end_sold",
      failed: "item_available",
    });
  });

  it("waits when the unit price rose again, and marks it over its total when only the total is over", () => {
    expect(
      afterQuote(limits, { ...quote, unitPriceCents: 8_001, grandTotalCents: 20_000 }),
    ).toEqual({ next: "wait", failed: "max_price" });
    expect(afterQuote(limits, { ...quote, grandTotalCents: 10_001 })).toEqual({
      next: "set_over_total",
      overTotal: true,
      failed: "max_total",
    });
  });
});

describe("standingRefusal", () => {
  const settings = {
    limitPerOrderCents: 10_000,
    limitPer30DaysCents: 50_000,
    isPaused: false,
    pausedChangedAt: null,
  };
  const standing: Standing = { hasGrant: true, settings };

  it("keeps a watch the person still lets buy within its limits", () => {
    expect(standingRefusal(standing, 10_000)).toBeNull();
  });

  it("assistant_disconnected without the grant, whatever the settings", () => {
    expect(standingRefusal({ hasGrant: false, settings: undefined }, 10_000)).toBe(
      "assistant_disconnected",
    );
  });

  it("purchases_paused when paused", () => {
    expect(standingRefusal({ hasGrant: true, settings: { ...settings, isPaused: true } }, 1)).toBe(
      "purchases_paused",
    );
  });

  it("limits_lowered when the limits are gone or the per-order limit is under max_total", () => {
    expect(standingRefusal({ hasGrant: true, settings: undefined }, 1)).toBe("limits_lowered");
    expect(
      standingRefusal({ hasGrant: true, settings: { ...settings, limitPer30DaysCents: null } }, 1),
    ).toBe("limits_lowered");
    expect(standingRefusal(standing, 10_001)).toBe("limits_lowered");
  });
});

describe("purchaseRecord and expiryOutcome", () => {
  it("records each purchase state as the watch's move", () => {
    expect(purchaseRecord("processing")).toBe("keep_processing");
    expect(purchaseRecord("refused")).toBe("payment_failed");
    expect(purchaseRecord("requires_person")).toBe("needs_person");
    for (const status of ["held", "capturing", "paid", "cancelled"])
      expect(purchaseRecord(status)).toBe("bought");
  });

  it("expires over_your_total when last seen over the total, else expired", () => {
    expect(expiryOutcome(true)).toBe("over_your_total");
    expect(expiryOutcome(false)).toBe("expired");
  });
});

describe("liveWatchRefusal", () => {
  const live = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ id: i + 1, itemId: 100 + i }));

  it("lets a watch be set on a new item under the limit", () => {
    expect(liveWatchRefusal(live(maxLiveWatches - 1), 7)).toBeNull();
  });

  it("already_watching names the live watch on the same item, before the limit", () => {
    expect(liveWatchRefusal(live(maxLiveWatches), 101)).toEqual({
      code: "already_watching",
      priceWatchId: 2,
    });
  });

  it("too_many_watches at the limit", () => {
    expect(liveWatchRefusal(live(maxLiveWatches), 7)).toEqual({ code: "too_many_watches" });
  });
});
