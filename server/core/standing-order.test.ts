import { describe, expect, it } from "vitest";
import {
  outcomeOfMove,
  standingEndOutcomeOfRefusal,
  standingOrderTransitions,
} from "./standing-order";

/** Every arrow of a standing order, as "from -> to" per event, with its outcome and time condition. */
const arrows = {
  claim: "active -> executing, before expiry",
  release: "executing -> active",
  bought: "executing -> fulfilled (bought)",
  needs_person: "executing -> needs_you",
  expire: "active -> expired (expired), once expired",
  cancel: "active -> cancelled (cancelled)",
  end: "active|executing -> cancelled",
};

const describeRule = (rule: (typeof standingOrderTransitions)["claim"]) =>
  `${rule.from.join("|")} -> ${rule.to}` +
  (rule.outcome ? ` (${rule.outcome})` : "") +
  (rule.needsUnexpired ? ", before expiry" : "") +
  (rule.needsExpired ? ", once expired" : "");

describe("a standing order's life (price watches, any-of groups and search watches read it)", () => {
  const events = Object.keys(arrows) as (keyof typeof arrows)[];

  it.each(events)("%s moves as written", (event) =>
    expect(describeRule(standingOrderTransitions[event])).toBe(arrows[event]),
  );
});

describe("the outcome a move records", () => {
  it("is the mover's when it gives one (an expiry over the total), else the table's", () => {
    const expire = standingOrderTransitions.expire;
    expect(outcomeOfMove(expire, "over_your_total")).toBe("over_your_total");
    expect(outcomeOfMove(expire)).toBe("expired");
    expect(outcomeOfMove(standingOrderTransitions.end, "limits_lowered")).toBe("limits_lowered");
    expect(outcomeOfMove(standingOrderTransitions.end)).toBeNull();
  });
});

describe("the purchase refusals that end a standing order", () => {
  const standing: [string, string][] = [
    ["over_spending_limit", "limits_lowered"],
    ["spending_limit_not_set", "limits_lowered"],
    ["purchases_paused", "purchases_paused"],
    ["agent_purchases_unavailable", "assistant_disconnected"],
    ["store_requires_checkout_link", "store_requires_checkout_link"],
    ["not_available_in_market", "not_available_in_market"],
    ["address_not_on_file", "address_not_on_file"],
    ["no_saved_card", "no_saved_card"],
    ["card_not_on_this_account", "card_not_on_this_account"],
  ];

  it.each(standing)("%s ends it with %s", (code, outcome) =>
    expect(standingEndOutcomeOfRefusal(code)).toBe(outcome),
  );

  it.each(["item_unavailable", "price_changed", "too_many_purchases", "quote_expired"])(
    "%s is left to the kind (a later price or match may buy)",
    (code) => expect(standingEndOutcomeOfRefusal(code)).toBeNull(),
  );
});
