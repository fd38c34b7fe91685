import { describe, expect, it } from "vitest";
import { type StandingOrderEvent, standingOrderTransitions } from "../core/standing-order";
import {
  isCancellableSearchWatch,
  outcomeOfPurchaseRefusal,
  searchWatchTransition,
} from "./states";

describe("a search watch's state table", () => {
  it.each(Object.keys(standingOrderTransitions) as StandingOrderEvent[])(
    "%s moves it as every standing order",
    (event) => expect(searchWatchTransition(event)).toEqual(standingOrderTransitions[event]),
  );

  it("the person may cancel only an active one", () => {
    expect(isCancellableSearchWatch("active")).toBe(true);
    expect(isCancellableSearchWatch("executing")).toBe(false);
  });
});

describe("the purchase refusals that end a buying search watch", () => {
  it("those of the person's standing, as every standing order", () => {
    expect(outcomeOfPurchaseRefusal("purchases_paused")).toBe("purchases_paused");
    expect(outcomeOfPurchaseRefusal("agent_purchases_unavailable")).toBe("assistant_disconnected");
  });

  it.each(["item_unavailable", "price_unavailable", "price_changed", "quote_expired"])(
    "%s does not end it: a later match may buy",
    (code) => expect(outcomeOfPurchaseRefusal(code)).toBeNull(),
  );
});
