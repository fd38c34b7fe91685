/**
 * Stores paid through Stripe (docs/adr/0106), with the `stripe` package against the Stripe-shaped
 * server: a captured payment's shares become Transfers to the stores' connected accounts, each
 * with the captured charge as `source_transaction`, the checkout as `transfer_group` and our ids in
 * metadata, once per key; Stripe's refusals (no such account, transfers not active, more than the
 * charge brought) leave the share pending with the reason; `retrieveAccount` is what
 * `ops store:connect` checks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { isProcessorRefusal, type PaymentProvider, transferKey } from "../payments";
import { UnknownOutcomeError } from "../payments/provider";
import { refundOrder } from "../refunds";
import { stripeProvider } from "../payments/stripe";
import { captureAtStripe, payCheckoutAtStripe } from "../testing/paid-orders";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { settleStoreShares } from "./settle-store-shares";

let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
let token: string;
const provider = () =>
  stripeProvider({ secretKey: "sk_test_local", apiBase: stripe.url, maxNetworkRetries: 0 });

beforeAll(async () => {
  stripe = await startStripeShapedServer();
  token = await (await createPartner()).token();
});
afterAll(() => stripe.close());

const capturedIntent = (amountCents: number) => captureAtStripe(provider(), amountCents);
const checkoutCapturedAtStripe = (stores: { id: number }[]) =>
  payCheckoutAtStripe(
    token,
    provider(),
    stores,
    stores.map(() => 5000),
  );

describe("transfers to connected accounts at Stripe", () => {
  it("sends each store's net from the captured charge, grouped by checkout, once", async () => {
    const stores = [await createStore({ platformFeeBps: 500 }), await createStore()];
    for (const store of stores) stripe.addAccount(store.payoutAccount!);
    const { id, payment } = await checkoutCapturedAtStripe(stores);

    const settle = () => settleStoreShares(db(), { now: new Date(), provider: provider() });
    await settle();
    await settle();
    const rows = await db().storeLedgerEntry.findMany({
      where: { paymentId: payment.id },
      include: { order: true },
    });
    expect(rows).toHaveLength(2);
    const made = stripe.transfers.filter((transfer) => transfer.transfer_group === id);
    expect(made).toHaveLength(2);
    const charge = stripe.intents.get(payment.processorPaymentId)!.latest_charge;
    expect(charge).toMatch(/^ch_/);
    for (const row of rows) {
      const transfer = made.find((each) => each.id === row.transferId)!;
      expect(transfer).toMatchObject({
        object: "transfer",
        amount: row.netCents,
        currency: "cad",
        source_transaction: charge,
        transfer_group: id,
        metadata: { ledger_entry: row.id, order: row.order.number, payment: payment.id },
      });
      expect(stores.find((store) => store.id === row.storeId)!.payoutAccount).toBe(
        transfer.destination,
      );
    }
  });

  it("replays a transfer by its key, and refuses what Stripe refuses, nothing sent", async () => {
    const account = `acct_${randomId("t").slice(2)}`;
    stripe.addAccount(account);
    const source = await capturedIntent(10_000);
    const request = {
      idempotencyKey: transferKey(randomId("pay_"), 1),
      destination: account,
      amountCents: 6_000,
      sourcePaymentId: source,
      transferGroup: "chk_test",
      metadata: {},
    };
    const first = await provider().transfer(request);
    expect((await provider().transfer(request)).id).toBe(first.id);
    const refusal = (input: Partial<typeof request>) =>
      provider()
        .transfer({ ...request, idempotencyKey: randomId("k_"), ...input })
        .then(
          () => "sent",
          (error: unknown) => (isProcessorRefusal(error) ? error.reason : String(error)),
        );
    // More than the charge brought (6,000 already sent of 10,000).
    expect(await refusal({ amountCents: 4_001 })).toBe("processor_refused");
    expect(await refusal({ destination: "acct_missing" })).toBe("processor_refused");
    const onboarding = `acct_${randomId("o").slice(2)}`;
    stripe.addAccount(onboarding, { transfers: "inactive" });
    expect(await refusal({ destination: onboarding })).toBe("processor_refused");
    expect(
      stripe.transfers.filter((t) => t.source_transaction !== null && t.destination === account),
    ).toHaveLength(1);
  });

  it("leaves a share Stripe refuses pending with the reason, to try again later", async () => {
    const store = await createStore();
    const { payment } = await checkoutCapturedAtStripe([store]);
    // The store's account was never created at Stripe.
    await settleStoreShares(db(), { now: new Date(), provider: provider() });
    const [row] = await db().storeLedgerEntry.findMany({ where: { paymentId: payment.id } });
    expect(row.transferStatus).toBe("pending");
    expect(row.transferReason).toMatch(/^refused: .*No such destination/);
    expect(row.transferAttempts).toBe(1);
  });

  it("a transfer and a reversal whose answers were lost are found at Stripe, not made again once it forgot their keys", async () => {
    const store = await createStore();
    stripe.addAccount(store.payoutAccount!);
    const { id, payment, orders } = await checkoutCapturedAtStripe([store]);
    // Stripe makes each, but no answer comes back.
    const lost: PaymentProvider = {
      ...provider(),
      transfer: async (input) => {
        await provider().transfer(input);
        throw new UnknownOutcomeError("answer lost");
      },
      reverseTransfer: async (input) => {
        await provider().reverseTransfer(input);
        throw new UnknownOutcomeError("answer lost");
      },
    };
    const settle = (using: PaymentProvider, hoursLater: number) =>
      settleStoreShares(db(), {
        now: new Date(Date.now() + hoursLater * 3_600_000),
        provider: using,
      });
    await settle(lost, 0);
    const sale = () =>
      db().storeLedgerEntry.findFirstOrThrow({ where: { paymentId: payment.id, kind: "sale" } });
    expect(await sale()).toMatchObject({
      transferStatus: "pending",
      transferReason: "processor_unanswered",
    });
    // A day later Stripe has forgotten the key: the transfer it made is found, not made again.
    stripe.forgetIdempotencyKeys();
    await settle(provider(), 25);
    const made = stripe.transfers.filter((transfer) => transfer.transfer_group === id);
    expect(made).toHaveLength(1);
    expect(await sale()).toMatchObject({ transferStatus: "transferred", transferId: made[0].id });

    await refundOrder(db(), provider(), {
      orderNumber: orders[0].number,
      amountCents: 1_000,
      reason: "Returned",
      source: "operator",
      now: new Date(),
    });
    await settle(lost, 26);
    stripe.forgetIdempotencyKeys();
    await settle(provider(), 51);
    const reversals = stripe.reversals.filter((reversal) => reversal.transfer === made[0].id);
    expect(reversals).toHaveLength(1);
    expect(
      await db().storeLedgerEntry.findFirstOrThrow({
        where: { paymentId: payment.id, kind: "refund" },
      }),
    ).toMatchObject({ transferStatus: "transferred", transferId: reversals[0].id });
  });

  it("looks up a connected account, and whether it can receive transfers", async () => {
    stripe.addAccount("acct_ready1");
    stripe.addAccount("acct_onboarding1", { transfers: "inactive" });
    expect(await provider().retrieveAccount({ accountId: "acct_ready1" })).toEqual({
      id: "acct_ready1",
      canReceiveTransfers: true,
    });
    expect(await provider().retrieveAccount({ accountId: "acct_onboarding1" })).toEqual({
      id: "acct_onboarding1",
      canReceiveTransfers: false,
    });
    expect(await provider().retrieveAccount({ accountId: "acct_nobody" })).toBeNull();
  });
});
