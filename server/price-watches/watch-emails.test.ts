/** The four price-watch emails render with their subject, the facts and the link the person needs. */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../../emails/render";

describe("price watch emails", () => {
  it("set: the item, the prices, the expiry and the cancel link", async () => {
    const email = await renderEmail("price-watch-set", {
      assistant: "Deal Finder",
      title: "Wool coat",
      maxPrice: "80.00",
      maxTotal: "100.00",
      expiresAt: "Nov 29, 2026, 9:00 p.m. UTC",
      cancelUrl: "http://localhost:3000/price-watches/7/cancel?token=abc",
    });
    expect(email.subject).toBe(
      "Deal Finder set a price watch for you: Wool coat at $80.00 or less",
    );
    expect(email.text).toContain("$100.00 CAD");
    expect(email.text).toContain("http://localhost:3000/price-watches/7/cancel?token=abc");
  });

  it("bought: the order, the total and the purchase's cancel link", async () => {
    const email = await renderEmail("price-watch-bought", {
      title: "Wool coat",
      price: "75.00",
      grandTotal: "94.92",
      orderNumber: "SO-ABC",
      chargesAt: "Nov 23",
      cancelUrl: "http://localhost:3000/purchases/pur_x/cancel?token=t",
    });
    expect(email.subject).toBe("Your price watch bought Wool coat at $75.00 (order SO-ABC)");
    expect(email.text).toContain("$94.92 CAD");
    expect(email.text).toContain("/purchases/pur_x/cancel?token=t");
  });

  it("needs you: why, and the checkout link", async () => {
    const email = await renderEmail("price-watch-needs-you", {
      title: "Wool coat",
      price: "75.00",
      reason: "card_declined",
      checkoutUrl: "http://localhost:3000/checkout/chk_1",
      checkoutExpiresAt: "Nov 22",
    });
    expect(email.subject).toBe("Your price watch needs you: Wool coat is at $75.00");
    expect(email.text).toContain("your bank declined your saved card");
    expect(email.text).toContain("http://localhost:3000/checkout/chk_1");
  });

  it("ended: one sentence per outcome", async () => {
    const expired = await renderEmail("price-watch-ended", {
      title: "Wool coat",
      maxPrice: "80.00",
      maxTotal: "100.00",
      outcome: "over_your_total",
    });
    expect(expired.subject).toBe("Your price watch on Wool coat ended");
    expect(expired.text).toContain("the total with shipping and tax was over your maximum");
    const cancelled = await renderEmail("price-watch-ended", {
      title: "Wool coat",
      maxPrice: "80.00",
      maxTotal: "100.00",
      outcome: "cancelled",
    });
    expect(cancelled.subject).toBe("Your price watch on Wool coat is cancelled");
  });
});
