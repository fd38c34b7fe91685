/**
 * No orphaned hold (B4-13): a process stopped between the processor's hold and our record of it,
 * before asking at all, or after closing a purchase and before releasing its hold. The sweep's
 * reconciliation finds each by the purchase row and its keys and releases what is held.
 */
import { describe, expect, it } from "vitest";
import {
  createBarePurchase,
  createHeldPurchase,
  createPurchase,
} from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { openPayment } from "../payments/payment-steps";
import { sandboxProvider } from "../payments/sandbox";
import { testCards } from "../payments/sandbox-cards";
import { sandboxLedger } from "../testing/purchase-ledger";
import { movePurchase } from "./purchase-writer";
import { reconcilePurchases } from "./reconcile-purchases";

const provider = () => sandboxProvider();
const inTwoMinutes = () => new Date(Date.now() + 120_000);
const purchaseOf = (id: string) => db().purchase.findUniqueOrThrow({ where: { id } });

describe("purchase reconciliation", () => {
  it("stopped between the processor's hold and our record: the hold is found by its key and released; refused bank_no_answer", async () => {
    let stopped = "";
    const crash = async (id: string) => {
      stopped = id;
      throw new Error("process killed");
    };
    await expect(createPurchase({ afterAuthorize: crash })).rejects.toThrow("process killed");
    expect(await purchaseOf(stopped)).toMatchObject({ status: "processing", orderNumber: null });
    expect(await sandboxLedger(stopped)).toMatchObject({ status: "authorized", holds: 1 });
    // Not before the deadline: the request may still be under way.
    expect(await reconcilePurchases(db(), { now: new Date(), provider: provider() })).toMatchObject(
      { refused: 0 },
    );
    expect(
      (await reconcilePurchases(db(), { now: inTwoMinutes(), provider: provider() })).refused,
    ).toBeGreaterThanOrEqual(1);
    expect(await purchaseOf(stopped)).toMatchObject({
      status: "refused",
      reason: "bank_no_answer",
    });
    expect(await sandboxLedger(stopped)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    expect((await db().payment.findUniqueOrThrow({ where: { purchaseId: stopped } })).status).toBe(
      "voided",
    );
    // No copy email: the person never heard of it.
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `purchase-copy:${stopped}` } }),
    ).toBe(0);
  });

  it("stopped before asking the processor: nothing is held; the payment is declined processor_timeout and the purchase refused", async () => {
    const purchase = await createBarePurchase();
    await db().$transaction((tx) =>
      openPayment(tx, {
        owner: { kind: "purchase", id: purchase.id },
        method: "saved",
        amountCents: 5000,
        cardLast4: "4242",
        now: new Date(),
      }),
    );
    await reconcilePurchases(db(), { now: inTwoMinutes(), provider: provider() });
    expect(await purchaseOf(purchase.id)).toMatchObject({
      status: "refused",
      reason: "bank_no_answer",
    });
    expect(
      await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } }),
    ).toMatchObject({ status: "declined", declineCode: "processor_timeout" });
    expect(
      await db().sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `${purchase.id}:` } },
      }),
    ).toBe(0);
  });

  it("a bank that answered late (unknown outcome): processing, then the hold is released at reconciliation", async () => {
    const { purchase } = await createPurchase({ card: testCards.answersLate });
    expect(purchase.status).toBe("processing");
    await reconcilePurchases(db(), { now: inTwoMinutes(), provider: provider() });
    expect(await purchaseOf(purchase.id)).toMatchObject({
      status: "refused",
      reason: "bank_no_answer",
    });
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "voided", captures: 0 });
  });

  it("stopped after a cancel's move and before its release: the hold under the cancelled purchase is released", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: new Date(Date.now() - 1000) });
    expect(
      await movePurchase(db(), { id: purchase.id, event: "item_sold", now: new Date() }),
    ).toMatchObject({ id: purchase.id, status: "cancelled" });
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized" });
    expect(
      (await reconcilePurchases(db(), { now: new Date(), provider: provider() })).released,
    ).toBeGreaterThanOrEqual(1);
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  });

  it("a declined saved card or one that wants authentication: requires_person, nothing held", async () => {
    const declined = await createPurchase({ card: testCards.declined });
    expect(declined.purchase).toMatchObject({ status: "requires_person", reason: "card_declined" });
    const authentication = await createPurchase({ card: testCards.requiresAuthentication });
    expect(authentication.purchase).toMatchObject({
      status: "requires_person",
      reason: "authentication_required",
    });
    expect(await sandboxLedger(authentication.purchase.id)).toMatchObject({
      status: "voided",
      captures: 0,
    });
  });
});
