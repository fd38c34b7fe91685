/**
 * The daily reconciliation (docs/adr/0108): a day of captures, a refund, transfers and a reversal
 * reconciles clean, in the sandbox and with the `stripe` package against the Stripe-shaped server
 * (its balance transactions listed page by page); each kind of difference injected on the
 * processor's side (a movement it lacks, one we lack, an amount that differs) is reported, and
 * raised as an operator alert; the job runs each past day once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { paymentProvider } from "../payments";
import { stripeProvider } from "../payments/stripe";
import { settleStoreShares } from "../payouts";
import { refundOrder } from "../refunds";
import { captureAtStripe, payCheckout, payCheckoutAtStripe } from "../testing/paid-orders";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { reconcileDay, reconcilePastDays } from "./reconcile-day";
import { findReport } from "./store";
import type { PaymentProvider } from "../payments";
import { captureLogLines } from "../testing/log-capture";

let token: string;
let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
const stripeSide = () =>
  stripeProvider({ secretKey: "sk_test_local", apiBase: stripe.url, maxNetworkRetries: 0 });

beforeAll(async () => {
  token = await (await createPartner()).token();
  stripe = await startStripeShapedServer();
});
afterAll(() => stripe.close());

const today = () => new Date();

/** A day's worth of money: a two-store checkout captured, transferred, partly refunded and reversed. */
const dayOfMoney = async (provider: PaymentProvider, atStripe: boolean) => {
  const stores = [await createStore({ platformFeeBps: 800 }), await createStore()];
  if (atStripe) for (const store of stores) stripe.addAccount(store.payoutAccount!);
  const paid = atStripe
    ? await payCheckoutAtStripe(token, provider, stores, [6_000, 2_500])
    : await payCheckout(token, stores, [6_000, 2_500]);
  const settle = () => settleStoreShares(db(), { now: new Date(), provider });
  await settle();
  await refundOrder(db(), provider, {
    orderNumber: paid.orders[0].number,
    amountCents: 1_000,
    reason: "Returned",
    source: "operator",
    now: new Date(),
  });
  await settle();
  return paid;
};

const differencesOf = async () =>
  ((await findReport(db(), new Date(today().toISOString().slice(0, 10))))?.differences ?? []).map(
    (difference) => [difference.kind, difference.objectType],
  );

describe("reconciling a day", () => {
  it("in the sandbox: clean, then each kind of difference reported and raised", async () => {
    const provider = paymentProvider();
    const paid = await dayOfMoney(provider, false);
    const report = await reconcileDay(db(), provider, today());
    expect(report).toMatchObject({ status: "clean", differences: [] });
    // The charge, the refund, two transfers and a reversal of this day (and any other of the file's).
    expect(report.matched).toBeGreaterThanOrEqual(5);
    expect(report.ours).toBe(report.processors);

    // The processor lost a transfer, shows another amount for a refund, and has a charge we never recorded.
    const [sale] = await db().storeLedgerEntry.findMany({
      where: { paymentId: paid.payment.id, kind: "sale" },
    });
    await db().sandboxTransfer.delete({ where: { id: sale.transferId! } });
    const refund = await db().refund.findFirstOrThrow({ where: { paymentId: paid.payment.id } });
    await db().sandboxRefund.update({
      where: { id: refund.processorRefundId! },
      data: { amountCents: 999 },
    });
    await db().sandboxPayment.create({
      data: {
        id: "sbpay_stranger",
        amountCents: 4_200,
        status: "captured",
        method: "card",
        capturedAt: new Date(),
      },
    });
    const logs = captureLogLines();
    const again = await reconcileDay(db(), provider, today());
    expect(again.status).toBe("differences");
    expect(await differencesOf()).toEqual(
      expect.arrayContaining([
        ["missing_at_processor", "transfer"],
        ["amount_differs", "refund"],
        ["missing_in_ledger", "charge"],
      ]),
    );
    expect(again.differences).toHaveLength(3);
    expect(again.differences.find((d) => d.kind === "amount_differs")).toMatchObject({
      processorId: refund.processorRefundId,
      ourId: refund.id,
      ourAmountCents: 1_000,
      processorAmountCents: 999,
    });
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        level: "error",
        alert: "reconciliation_differences",
        differences: 3,
      }),
    );
  });

  it("with Stripe: clean, then a lost charge, a changed transfer and a stranger's payment", async () => {
    // A fresh reading of today: the sandbox rows of the other test are not Stripe's.
    await db().reconciliationReport.deleteMany({});
    const provider = stripeSide();
    const paid = await dayOfMoney(provider, true);
    const ours = await db().storeLedgerEntry.findMany({ where: { paymentId: paid.payment.id } });
    // Only this checkout's movements at Stripe: compare them alone, by deleting the sandbox-only rows of the day.
    await db()
      .$executeRaw`UPDATE payments SET captured_at = captured_at - interval '3 days' WHERE id <> ${paid.payment.id} AND captured_at IS NOT NULL`;
    await db()
      .$executeRaw`UPDATE store_ledger_entries SET transferred_at = transferred_at - interval '3 days' WHERE payment_id <> ${paid.payment.id}`;
    await db()
      .$executeRaw`UPDATE refunds SET created_at = created_at - interval '3 days' WHERE payment_id <> ${paid.payment.id}`;
    const clean = await reconcileDay(db(), provider, today());
    expect(clean.differences).toEqual([]);
    // At Stripe: the charge, two transfers, the refund and its reversal.
    expect(clean.matched).toBe(1 + 2 + 1 + 1);
    expect(ours.map((row) => row.transferId).every(Boolean)).toBe(true);

    stripe.balance.drop(paid.payment.processorPaymentId!);
    stripe.balance.setAmount(ours.find((row) => row.kind === "sale")!.transferId!, -1);
    await captureAtStripe(provider, 777);
    captureLogLines();
    const report = await reconcileDay(db(), provider, today());
    expect(report.differences.map((d) => [d.kind, d.objectType]).sort()).toEqual(
      [
        ["amount_differs", "transfer"],
        ["missing_at_processor", "charge"],
        ["missing_in_ledger", "charge"],
      ].sort(),
    );
  });

  it("the job reconciles each past day once, after it ends", async () => {
    await db().reconciliationReport.deleteMany({});
    const provider = paymentProvider();
    // Noon UTC today: yesterday and the six days before are over (the margin too); today is not.
    const now = new Date(`${new Date().toISOString().slice(0, 10)}T12:00:00.000Z`);
    // Days the other tests moved rows into report differences: their alerts are expected.
    captureLogLines();
    expect(await reconcilePastDays(db(), { now, provider })).toBe(7);
    expect(await reconcilePastDays(db(), { now, provider })).toBe(0);
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    expect(await findReport(db(), new Date(yesterday))).toMatchObject({ status: "clean" });
    // Today is not over: not reconciled yet.
    expect(await findReport(db(), new Date(now.toISOString().slice(0, 10)))).toBeNull();
  });
});
