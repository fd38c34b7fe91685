import { describe, expect, it } from "vitest";
import {
  isFinalPurchaseState,
  nextPurchaseState,
  publicPurchaseStatus,
  publicPurchaseStatuses,
  purchaseEvents,
  purchaseStatuses,
  purchaseTransition,
} from "./states";

/**
 * The only allowed moves, with the conditions under which they apply ("any": due and cancellable do
 * not matter). Every other (status, event, due, cancellable) combination must be refused.
 */
const allowed: Record<string, { to: string; due?: boolean; cancellable?: boolean }> = {
  "processing hold": { to: "held" },
  "processing needs_person": { to: "requires_person" },
  "processing refuse": { to: "refused" },
  "held claim_charge": { to: "capturing", due: true },
  "capturing charged": { to: "paid" },
  "capturing charge_failed": { to: "refused" },
  "held cancel": { to: "cancelled", cancellable: true },
  "held item_sold": { to: "cancelled" },
  "held notice_undelivered": { to: "cancelled", due: true },
  "paid refund": { to: "refunded" },
};

describe("purchase state table", () => {
  const flags = [true, false];
  const cases = purchaseStatuses.flatMap((status) =>
    purchaseEvents.flatMap((event) =>
      flags.flatMap((isDue) =>
        flags.map((isCancellable) => [status, event, isDue, isCancellable] as const),
      ),
    ),
  );

  it("covers 8 statuses x 10 events x due or not x cancellable or not", () =>
    expect(cases).toHaveLength(320));

  it.each(cases)("%s + %s (due: %s, cancellable: %s)", (status, event, isDue, isCancellable) => {
    const rule = allowed[`${status} ${event}`];
    const applies =
      rule &&
      (rule.due === undefined || rule.due === isDue) &&
      (rule.cancellable === undefined || rule.cancellable === isCancellable);
    expect(nextPurchaseState(status, event, { isDue, isCancellable })).toBe(
      applies ? rule.to : null,
    );
  });

  it("requires_person, refused, cancelled and refunded are final; paid only moves to refunded", () => {
    expect(purchaseStatuses.filter(isFinalPurchaseState)).toEqual([
      "requires_person",
      "refused",
      "cancelled",
      "refunded",
    ]);
    expect(
      purchaseEvents.filter((event) => purchaseTransition(event).from.includes("paid")),
    ).toEqual(["refund"]);
  });

  it("a cancel can never follow a claimed charge: capturing only leads to paid or refused", () => {
    expect(
      purchaseEvents
        .filter((event) => purchaseTransition(event).from.includes("capturing"))
        .map((event) => purchaseTransition(event).to),
    ).toEqual(["paid", "refused"]);
  });

  it("the item sold elsewhere is cancelled with reason item_sold; an undelivered notice with notice_undelivered", () => {
    expect(purchaseTransition("item_sold")).toMatchObject({ to: "cancelled", reason: "item_sold" });
    expect(purchaseTransition("notice_undelivered")).toMatchObject({
      to: "cancelled",
      reason: "notice_undelivered",
    });
  });

  it("charges_at is kept while held or capturing and cleared by every other move", () => {
    expect(purchaseEvents.filter((event) => !purchaseTransition(event).clearsChargesAt)).toEqual([
      "hold",
      "claim_charge",
    ]);
  });

  it("capturing is shown as held", () => {
    expect(purchaseStatuses.map(publicPurchaseStatus)).toEqual([
      "processing",
      "held",
      "held",
      "paid",
      "requires_person",
      "refused",
      "cancelled",
      "refunded",
    ]);
    // The one list of public statuses (API and dashboard schemas) is exactly what publicPurchaseStatus can answer.
    expect(publicPurchaseStatuses).toEqual([
      ...new Set(purchaseStatuses.map(publicPurchaseStatus)),
    ]);
  });
});
