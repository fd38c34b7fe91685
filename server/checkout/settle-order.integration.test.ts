/**
 * The polling safety net in batches ordered by age with backoff (issue 23, section 3): attempts the
 * processor can never answer about (more than a batch of them) are asked again later and later,
 * so a newer attempt is still reconciled on the next runs instead of waiting behind them forever.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { openCheckoutVia } from "../testing/checkout-fixtures";
import { startAttempt } from "./hosted/payment-attempt";
import type { PaymentProvider } from "../payments/provider";
import { sandboxProvider } from "../payments/sandbox";
import { attemptTimeoutMs } from "../payments/payment-steps";
import { settlePayments } from "./settle-payments";

let token: string;
let storeId: number;
beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

const newCheckout = async () =>
  (await openCheckoutVia(token, { storeId, priceCents: 2500, email: "poll@example.ca" })).id;

describe("settlement's polling order", () => {
  it("a batch of attempts the processor never answers about does not starve a newer one", async () => {
    const now = new Date();
    const stuck = await newCheckout();
    // 25 attempts (more than a batch of 20), each older than the last finished, none ever answerable.
    const spacing = attemptTimeoutMs + 1_000;
    for (let i = 0; i < 25; i++)
      await startAttempt(db(), {
        checkoutId: stuck,
        method: "card",
        cardLast4: "4242",
        now: new Date(now.getTime() - (30 - i) * spacing),
      });
    const fresh = await newCheckout();
    const newer = await startAttempt(db(), {
      checkoutId: fresh,
      method: "card",
      cardLast4: "4242",
      now: new Date(now.getTime() - 2 * spacing),
    });

    const asked: string[] = [];
    const sandbox = sandboxProvider();
    const provider: PaymentProvider = {
      ...sandbox,
      retrieve: async (input) => {
        const key = "authorizeKey" in input ? input.authorizeKey : input.paymentId;
        asked.push(key);
        if (key.startsWith(`${stuck}:`)) throw new Error("processor cannot say");
        return sandbox.retrieve(input);
      },
    };
    for (let run = 0; run < 3; run++)
      await settlePayments({ db: db(), now: new Date(now.getTime() + run * 5_000), provider });

    // The newer attempt was reached (the processor never made it: declined), and the stuck ones were not asked every run.
    expect(await db().payment.findUniqueOrThrow({ where: { id: newer.id } })).toMatchObject({
      status: "declined",
      declineCode: "processor_timeout",
    });
    expect(asked.filter((key) => key.startsWith(`${stuck}:`)).length).toBeLessThanOrEqual(25);
    // The oldest is asked first.
    expect(asked[0]).toBe(`${stuck}:1:authorize`);
    // Each miss doubles the wait: asked again once 30 s have passed, then not before another 60 s.
    const oldest = () =>
      db().payment.findFirstOrThrow({ where: { checkoutId: stuck, attempt: 1 } });
    expect((await oldest()).nextCheckAt).toEqual(new Date(now.getTime() + 30_000));
    const again = new Date(now.getTime() + 31_000);
    await settlePayments({ db: db(), now: again, provider });
    expect(await oldest()).toMatchObject({
      checkAttempts: 2,
      nextCheckAt: new Date(again.getTime() + 60_000),
    });
  });
});
