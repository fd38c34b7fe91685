/** holdSandboxPurchase, the purchase steps without the key and rules: the held purchase it records, and one purchase per quote. */
import { describe, expect, it } from "vitest";
import { createPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import { sandboxLedger } from "../testing/purchase-ledger";
import { holdSandboxPurchase } from "./hold-sandbox-purchase";
import { chargeDelayMs } from "./record-answer";
import { copyEmailKey } from "./purchase-emails";

describe("creating a purchase with its hold", () => {
  it("records the hold: held, order number, charges_at = cancel_until = 24 h later, payment authorized, the copy email with its cancel link", async () => {
    const now = new Date();
    const { purchase, person } = await createPurchase({ now });
    expect(purchase).toMatchObject({
      status: "held",
      email: person.email,
      grandTotalCents: 5000,
      reason: null,
    });
    expect(purchase.id).toMatch(/^pur_/);
    expect(purchase.orderNumber).toMatch(/^SO-[0-9A-Z]{8}$/);
    expect(purchase.chargesAt).toEqual(new Date(now.getTime() + chargeDelayMs));
    expect(purchase.cancelUntil).toEqual(purchase.chargesAt);
    expect(
      await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } }),
    ).toMatchObject({ status: "authorized", amountCents: 5000, method: "saved" });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "authorized",
      holds: 1,
      captures: 0,
      releases: 0,
    });
    const copy = await db().emailMessage.findUniqueOrThrow({
      where: { dedupeKey: copyEmailKey(purchase.id) },
    });
    expect(copy).toMatchObject({ to: person.email, template: "purchase-copy" });
    expect((copy.props as { cancelUrl: string }).cancelUrl).toContain(
      `/purchases/${purchase.id}/cancel?token=`,
    );
  });

  it("one purchase per quote: a second one is refused with quote_already_purchased and places no second hold", async () => {
    const { input } = await createPurchase();
    const holdsBefore = await db().sandboxPayment.count();
    await expect(
      holdSandboxPurchase(db(), sandboxProvider(), { ...input, now: new Date() }),
    ).rejects.toMatchObject({ code: "quote_already_purchased" });
    expect(await db().purchase.count({ where: { quoteId: input.quoteId } })).toBe(1);
    expect(await db().sandboxPayment.count()).toBe(holdsBefore);
  });
});
