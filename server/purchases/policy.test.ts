/** The purchase's pure rules: the checks in the reference's order, what the key keeps, where an answer moves. */
import { describe, expect, it } from "vitest";
import { AppError } from "../core/errors";
import type { QuoteSnapshot } from "../checkout";
import {
  checkoutRefusal,
  checkQuote,
  isStoredRefusal,
  lockedChecks,
  moveOfAnswer,
  overSpendingLimit,
  purchasesPerHour,
  refusalOutcome,
  roomAfter,
  storedAs,
} from "./policy";

const line = { itemId: 7, variantId: 70, title: "Coat", size: "M", color: null, quantity: 1 };
const snapshotOf = (
  stores: { agentCheckout: "link" | "direct"; unitPriceCents?: number }[],
  destination = "ON",
) =>
  ({
    destination,
    unavailable: [],
    stores: stores.map((store, index) => ({
      storeId: index + 1,
      slug: `store-${index + 1}`,
      name: "Store",
      url: "https://store.example",
      agentCheckout: store.agentCheckout,
      lines: [{ ...line, unitPriceCents: store.unitPriceCents ?? 5000, imageUrl: null, url: "u" }],
      parcel: {},
    })),
  }) as unknown as QuoteSnapshot;

const saved = {
  name: "Ada Person",
  line1: "100 Queen St W",
  line2: null,
  city: "Toronto",
  province: "ON",
  postalCode: "M5H 2N2",
  country: "CA",
};
const quoteAddress = {
  name: "Ada Person",
  line1: "100 Queen St W",
  city: "Toronto",
  province: "on",
  postal_code: "m5h2n2",
  country: "CA",
};
const allowing = {
  limitPerOrderCents: 10_000,
  limitPer30DaysCents: 20_000,
  isPaused: false,
  pausedChangedAt: null,
};
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as AppError).code;
  }
  return null;
};

describe("checkQuote: the quote, person and card rules in the reference's order", () => {
  const check = (overrides: Partial<Parameters<typeof checkQuote>[0]> = {}) =>
    checkQuote({
      snapshot: snapshotOf([{ agentCheckout: "direct" }]),
      quoteAddress,
      savedAddress: saved,
      settings: allowing,
      hasCard: true,
      ...overrides,
    });

  it("passes a direct store's quote to the saved address, with limits and a card, and returns the settings", () => {
    expect(check()).toEqual(allowing);
  });

  it("refuses in order: link store, Quebec, nothing to buy, address, settings, card", () => {
    const none = {
      snapshot: snapshotOf([{ agentCheckout: "link" }], "QC"),
      savedAddress: null,
      settings: undefined,
      hasCard: false,
    };
    expect(codeOf(() => check(none))).toBe("store_requires_checkout_link");
    const direct = snapshotOf([{ agentCheckout: "direct" }], "QC");
    expect(codeOf(() => check({ ...none, snapshot: direct }))).toBe("not_available_in_market");
    const empty = snapshotOf([]);
    expect(codeOf(() => check({ ...none, snapshot: empty }))).toBe("item_unavailable");
    const ontario = snapshotOf([{ agentCheckout: "direct" }]);
    expect(codeOf(() => check({ ...none, snapshot: ontario }))).toBe("address_not_on_file");
    expect(codeOf(() => check({ ...none, snapshot: ontario, savedAddress: saved }))).toBe(
      "spending_limit_not_set",
    );
    expect(
      codeOf(() =>
        check({
          ...none,
          snapshot: ontario,
          savedAddress: saved,
          settings: { ...allowing, isPaused: true },
        }),
      ),
    ).toBe("purchases_paused");
    expect(
      codeOf(() => check({ ...none, snapshot: ontario, savedAddress: saved, settings: allowing })),
    ).toBe("no_saved_card");
  });
});

describe("lockedChecks: prices, stock, limits, then the hourly count", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  const state = {
    spentCents: 0,
    lastHourCount: 0,
    lastHourFirst: null,
    prices: [{ id: 7, priceCents: 5000 }],
  };
  const check = (overrides: Partial<Parameters<typeof lockedChecks>[0]> = {}) =>
    lockedChecks({
      state,
      snapshot: snapshotOf([{ agentCheckout: "direct" }]),
      reserved: new Map([[70, 5000]]),
      grandTotalCents: 5650,
      now,
      settings: allowing,
      ...overrides,
    });

  it("passes when every price, unit and limit holds", () => {
    expect(() => check()).not.toThrow();
  });

  it("refuses a price gone, a price moved, a unit taken, naming the items", () => {
    expect(codeOf(() => check({ state: { ...state, prices: [] }, reserved: new Map() }))).toBe(
      "price_unavailable",
    );
    const moved = { ...state, prices: [{ id: 7, priceCents: 4000 }] };
    expect(codeOf(() => check({ state: moved, reserved: new Map() }))).toBe("price_changed");
    let taken: unknown;
    try {
      check({ reserved: new Map() });
    } catch (error) {
      taken = error;
    }
    expect(taken).toMatchObject({
      code: "item_unavailable",
      options: { details: { items: [{ item_id: 7, size: "M" }] } },
    });
  });

  it("refuses over the per-order limit, then over the 30-day room, with limit and room", () => {
    let over: unknown;
    try {
      check({ grandTotalCents: 10_001 });
    } catch (error) {
      over = error;
    }
    expect(over).toMatchObject({
      code: "over_spending_limit",
      options: {
        details: {
          limit: { amount: "100.00", currency: "CAD" },
          room: { amount: "100.00", currency: "CAD" },
        },
      },
    });
    expect(codeOf(() => check({ state: { ...state, spentCents: 16_000 } }))).toBe(
      "over_spending_limit",
    );
  });

  it("refuses the purchase past the hourly count, with the seconds until the oldest leaves the hour", () => {
    const busy = {
      ...state,
      lastHourCount: purchasesPerHour,
      lastHourFirst: new Date(now.getTime() - 3_600_000 + 90_000),
    };
    let refused: unknown;
    try {
      check({ state: busy });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: "too_many_purchases", options: { retryAfter: 90 } });
  });
});

describe("what the key keeps, and how", () => {
  it("keeps 403 and 409 refusals but the rate limit and the key in use", () => {
    expect(isStoredRefusal(new AppError("price_changed"))).toBe(true);
    expect(isStoredRefusal(new AppError("agent_purchases_unavailable"))).toBe(true);
    expect(isStoredRefusal(new AppError("too_many_purchases"))).toBe(false);
    expect(isStoredRefusal(new AppError("idempotency_key_in_use"))).toBe(false);
    expect(isStoredRefusal(new AppError("not_found"))).toBe(false);
    expect(isStoredRefusal(new Error("database down"))).toBe(false);
  });

  it("stores an outcome under status 200, a refusal as its status and error body", () => {
    const refusal = new AppError("price_changed", { message: "moved", details: { items: [] } });
    expect(refusalOutcome(refusal)).toEqual({
      status: 409,
      body: { error: { code: "price_changed", message: "moved", items: [] } },
    });
    expect(storedAs(refusalOutcome(refusal))).toEqual({
      status: 200,
      body: refusalOutcome(refusal),
    });
  });

  it("names a checkout's refusal in POST /purchases' codes, saying nothing was charged", () => {
    const expired = checkoutRefusal(new AppError("quote_expired", { message: "Moved." }), null);
    expect(expired.code).toBe("price_changed");
    expect(expired.message).toContain("(card_declined)");
    expect(expired.message).toContain("Nothing was charged.");
    expect(checkoutRefusal(new AppError("nothing_to_buy"), "insufficient_funds").code).toBe(
      "item_unavailable",
    );
    expect(checkoutRefusal(new AppError("item_unavailable"), null).code).toBe("item_unavailable");
  });
});

describe("moveOfAnswer: where an answer other than a hold moves the purchase", () => {
  it("unknown stays; decline and authentication need the person; a refused create refuses unless the card is gone", () => {
    expect(moveOfAnswer({ kind: "unknown" })).toBeNull();
    expect(moveOfAnswer({ kind: "requires_action", processorPaymentId: "pi" })).toEqual({
      event: "needs_person",
      reason: "authentication_required",
    });
    expect(moveOfAnswer({ kind: "declined", declineCode: null })).toEqual({
      event: "needs_person",
      reason: "card_declined",
    });
    expect(
      moveOfAnswer({ kind: "refused_by_processor", reason: "payment_method_not_found" }),
    ).toEqual({ event: "needs_person", reason: "payment_method_not_found" });
    expect(moveOfAnswer({ kind: "refused_by_processor", reason: "processor_refused" })).toEqual({
      event: "refuse",
      reason: "processor_refused",
    });
  });
});

describe("the spending room", () => {
  it("is the lesser of the per-order limit and what the 30 days have left", () => {
    const room = roomAfter(15_000, { perOrderCents: 10_000, per30DaysCents: 20_000 });
    expect(room).toEqual({
      perOrderCents: 10_000,
      per30DaysCents: 20_000,
      room30DaysCents: 5_000,
      roomCents: 5_000,
    });
    expect(overSpendingLimit(5_000, room)).toBeNull();
    expect(overSpendingLimit(6_000, room)).toMatchObject({ limitCents: 20_000, roomCents: 5_000 });
    expect(overSpendingLimit(11_000, room)).toMatchObject({ limitCents: 10_000 });
  });
});
