/**
 * Review M2: the reconciliation and a late answer of the same purchase's authorize race. The
 * reconciliation moves the purchase (processing -> refused) first and releases the hold only when
 * its move won; the late answer records the hold on the payment only while it is still
 * `authorizing`. Either the purchase is held over a live hold, or refused over a released one:
 * never held over a voided hold, never a payment row that says authorized over a voided hold.
 */
import { describe, expect, it } from "vitest";
import { createPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import type { PaymentProvider } from "../payments/provider";
import { sandboxLedger } from "../testing/purchase-ledger";
import { chargeDelayMs, recordAuthorizeAnswer } from "./record-answer";
import { reconcilePurchases } from "./reconcile-purchases";

const inTwoMinutes = () => new Date(Date.now() + 120_000);
const stateOf = async (id: string) => ({
  purchase: (await db().purchase.findUniqueOrThrow({ where: { id } })).status,
  payment: (await db().payment.findUniqueOrThrow({ where: { purchaseId: id } })).status,
  processor: (await sandboxLedger(id)).status,
});

/** A purchase whose request stopped after the processor's hold (processing, payment authorizing, a live hold). */
const stoppedAfterHold = async () => {
  let stopped = "";
  const made = createPurchase({
    afterAuthorize: async (id) => {
      stopped = id;
      throw new Error("slow request: answer not recorded yet");
    },
  });
  await expect(made).rejects.toThrow("slow request");
  const payment = await db().payment.findUniqueOrThrow({ where: { purchaseId: stopped } });
  const hold = await db().sandboxPayment.findUniqueOrThrow({
    where: { idempotencyKey: `${stopped}:authorize` },
  });
  const purchase = await db().purchase.findUniqueOrThrow({
    where: { id: stopped },
    include: { client: true },
  });
  /** What the slow request does when its answer finally arrives (the purchase's step 4, record-answer.ts). */
  const lateAnswer = (now: Date) =>
    recordAuthorizeAnswer(db(), sandboxProvider(), {
      id: stopped,
      email: purchase.email,
      grandTotalCents: purchase.grandTotalCents,
      assistant: purchase.client.name,
      payment,
      result: { kind: "authorized", processorPaymentId: hold.id },
      now,
      chargesAt: new Date(now.getTime() + chargeDelayMs),
    });
  return { id: stopped, lateAnswer };
};

describe("reconciliation against a late authorize answer (M2)", () => {
  it("the late answer lands while the reconciliation's release is in flight: refused over a released hold, never held over a voided one", async () => {
    const { id, lateAnswer } = await stoppedAfterHold();
    const sandbox = sandboxProvider();
    // The real sandbox processor; the slow request records its answer while the release call is on the wire.
    const racing: PaymentProvider = {
      ...sandbox,
      release: async (input) => {
        await lateAnswer(new Date());
        return sandbox.release(input);
      },
    };
    await reconcilePurchases(db(), { now: inTwoMinutes(), provider: racing });
    expect(await stateOf(id)).toEqual({
      purchase: "refused",
      payment: "voided",
      processor: "voided",
    });
    expect(await db().order.count({ where: { purchaseId: id } })).toBe(0);
  });

  it("the late answer after the reconciliation: the payment stays voided (its write is guarded by authorizing)", async () => {
    const { id, lateAnswer } = await stoppedAfterHold();
    await reconcilePurchases(db(), { now: inTwoMinutes(), provider: sandboxProvider() });
    await lateAnswer(new Date());
    expect(await stateOf(id)).toEqual({
      purchase: "refused",
      payment: "voided",
      processor: "voided",
    });
  });

  it("the late answer first: held over a live hold, and the reconciliation leaves it alone", async () => {
    const { id, lateAnswer } = await stoppedAfterHold();
    await lateAnswer(new Date());
    await reconcilePurchases(db(), { now: inTwoMinutes(), provider: sandboxProvider() });
    expect(await stateOf(id)).toEqual({
      purchase: "held",
      payment: "authorized",
      processor: "authorized",
    });
  });
});
