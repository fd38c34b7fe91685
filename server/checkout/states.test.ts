import { describe, expect, it } from "vitest";
import {
  checkoutEvents,
  checkoutStatuses,
  checkoutTransition,
  isFinalCheckoutState,
  nextCheckoutState,
} from "./states";

/** Every (status, event, due) combination and where it must lead; anything not listed is refused. */
const expected: Record<string, string> = {
  "awaiting_payment pay due": "paid",
  "awaiting_payment pay not-due": "paid",
  "awaiting_payment cancel due": "cancelled",
  "awaiting_payment cancel not-due": "cancelled",
  "awaiting_payment expire due": "expired",
};

describe("checkout state table", () => {
  const cases = checkoutStatuses.flatMap((status) =>
    checkoutEvents.flatMap((event) =>
      [true, false].map((isDue) => [status, event, isDue] as const),
    ),
  );

  it("covers 4 statuses x 3 events x due or not", () => expect(cases).toHaveLength(24));

  it.each(cases)("%s + %s (due: %s)", (status, event, isDue) => {
    expect(nextCheckoutState(status, event, { isDue })).toBe(
      expected[`${status} ${event} ${isDue ? "due" : "not-due"}`] ?? null,
    );
  });

  it("only paid, cancelled and expired are final", () => {
    expect(checkoutStatuses.filter(isFinalCheckoutState)).toEqual(["paid", "cancelled", "expired"]);
  });

  it("cancel and expire give the reservations back; pay keeps them", () => {
    expect(
      checkoutEvents.filter((event) => checkoutTransition(event).releasesReservations),
    ).toEqual(["cancel", "expire"]);
  });
});
