/** The purchase emails render: the copy carries the cancel link and the deadline; the closed email says what happened. */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../../emails/render";

describe("purchase emails", () => {
  it("the copy shows the total, the charge time and the cancel link", async () => {
    const cancelUrl = "http://localhost:3000/purchases/pur_abc/cancel?token=t0k";
    const email = await renderEmail("purchase-copy", {
      orderNumber: "SO-ABCDEFGH",
      assistant: "Helper",
      grandTotal: "50.00",
      chargesAt: "Nov 23, 2026",
      cancelUntil: "Nov 23, 2026",
      cancelUrl,
    });
    expect(email.subject).toBe(
      "Helper bought order SO-ABCDEFGH for you: cancel until Nov 23, 2026",
    );
    expect(email.text).toContain(cancelUrl);
    expect(email.text).toContain("$50.00 CAD");
  });

  it.each(["charged", "cancelled", "item_sold", "notice_undelivered", "hold_expired"] as const)(
    "the closed email for %s",
    async (outcome) => {
      const email = await renderEmail("purchase-closed", {
        orderNumber: "SO-ABCDEFGH",
        grandTotal: "50.00",
        outcome,
      });
      expect(email.subject).toContain("SO-ABCDEFGH");
      expect(email.text).toContain(outcome === "charged" ? "was charged" : "nothing was charged");
    },
  );
});
