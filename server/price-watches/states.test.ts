import { describe, expect, it } from "vitest";
import { type StandingOrderEvent, standingOrderTransitions } from "../core/standing-order";
import { groupTransition, isCancellableGroup } from "./groups/group-states";
import { outcomeOfPurchaseRefusal, priceWatchTransition } from "./states";

const standingEvents = Object.keys(standingOrderTransitions) as StandingOrderEvent[];

describe("a price watch's and an any-of group's state tables", () => {
  it.each(standingEvents)("%s moves both as every standing order", (event) => {
    expect(priceWatchTransition(event)).toEqual(standingOrderTransitions[event]);
    expect(groupTransition(event)).toEqual(standingOrderTransitions[event]);
  });

  it("a price watch also ends item_sold, and is withdrawn whether active or claimed", () => {
    expect(priceWatchTransition("item_sold")).toMatchObject({
      from: ["active", "executing"],
      to: "item_sold",
      outcome: "item_sold",
    });
    expect(priceWatchTransition("withdraw")).toMatchObject({
      from: ["active", "executing"],
      to: "cancelled",
      outcome: null,
    });
  });

  it("the person may cancel only an active group", () => {
    expect(isCancellableGroup("active")).toBe(true);
    expect(isCancellableGroup("executing")).toBe(false);
  });
});

describe("the purchase refusals that end a price watch", () => {
  it("those of the person's standing, as every standing order", () => {
    expect(outcomeOfPurchaseRefusal("over_spending_limit")).toBe("limits_lowered");
    expect(outcomeOfPurchaseRefusal("no_saved_card")).toBe("no_saved_card");
  });

  it.each(["item_unavailable", "price_unavailable"])(
    "%s: its one item is no longer for sale, so it ends item_sold",
    (code) => expect(outcomeOfPurchaseRefusal(code)).toBe("item_sold"),
  );

  it.each(["price_changed", "too_many_purchases", "quote_expired", "quote_already_purchased"])(
    "%s does not end it",
    (code) => expect(outcomeOfPurchaseRefusal(code)).toBeNull(),
  );
});
