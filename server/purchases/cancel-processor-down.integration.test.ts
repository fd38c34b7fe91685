/**
 * Review L6: the person's cancel commits (held -> cancelled, the confirmation email), then the hold
 * is released at the processor. A processor that fails then (down, unreachable) must not turn the
 * committed cancel into a 500: the person is told it is cancelled, and the sweep's reconciliation
 * releases the hold left under the cancelled purchase (same key, never twice).
 */
import { describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import { stripeProvider } from "../payments/stripe";
import { sandboxLedger } from "../testing/purchase-ledger";
import { cancelPurchase } from "./cancel-purchase";
import { reconcilePurchases } from "./reconcile-purchases";

/** The real Stripe client against an address where nothing listens: every call is a connection error. */
const unreachableProcessor = () =>
  stripeProvider({
    secretKey: "sk_test_unreachable",
    apiBase: "http://127.0.0.1:9",
    maxNetworkRetries: 0,
    timeoutMs: 2_000,
  });

describe("a cancel whose release fails at the processor (L6)", () => {
  it("answers cancelled; the hold stays for the sweep, which releases it once", async () => {
    const { purchase } = await createHeldPurchase();
    const vanished = cancelPurchase(db(), unreachableProcessor(), {
      id: purchase.id,
      now: new Date(),
      by: "person",
    });
    await expect(vanished).resolves.toEqual({
      id: purchase.id,
      status: "cancelled",
      alreadyCancelled: false,
      reason: "cancelled_by_person",
    });
    expect(await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
      status: "cancelled",
      cancelledBy: "person",
    });
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `purchase-closed:${purchase.id}` } }),
    ).toBe(1);
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", releases: 0 });
    // A second cancel says already cancelled and calls nothing.
    expect(
      await cancelPurchase(db(), unreachableProcessor(), {
        id: purchase.id,
        now: new Date(),
        by: "person",
      }),
    ).toMatchObject({ alreadyCancelled: true });
    await reconcilePurchases(db(), { now: new Date(), provider: sandboxProvider() });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    expect(
      (await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } })).status,
    ).toBe("voided");
  });
});
