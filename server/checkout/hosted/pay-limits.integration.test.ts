/**
 * Review M5: the hosted page is not a card-testing tool. A checkout takes at most 5 declined
 * payments, then refuses further attempts with a clear message; a client address is limited in
 * pay attempts and in declines across checkouts (Redis, memory when Redis is away), and another
 * address is not affected.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { testCards } from "../../payments/sandbox-cards";
import { openCheckoutVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";

let token: string;
let storeId: number;
const card = (number: string) => ({
  type: "card" as const,
  number,
  exp_month: 12,
  exp_year: 2034,
  cvc: "123",
});
/** A distinct address each time, so the per-address windows of one test do not touch another's. */
let addresses = 0;
const address = () => `203.0.113.${++addresses}`;

beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

const newCheckout = async () =>
  (await openCheckoutVia(token, { storeId, priceCents: 1500, email: "limits@example.ca" })).id;

describe("pay attempt limits", () => {
  it("a checkout takes 5 declined payments, then refuses more with a clear message and asks the processor nothing", async () => {
    const page = pageCaller(undefined, address());
    const id = await newCheckout();
    for (let i = 0; i < 5; i++)
      expect(
        (await page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.declined) }))
          .outcome,
      ).toBe("declined");
    const refused = page.checkoutPage.pay({
      id,
      accept_terms: true,
      method: card(testCards.succeeds),
    });
    await expect(refused).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
    await expect(refused).rejects.toThrow(/too many declined payments.*new checkout link/i);
    // From another address too: the count is the checkout's, in PostgreSQL.
    await expect(
      pageCaller(undefined, address()).checkoutPage.pay({
        id,
        accept_terms: true,
        method: card(testCards.succeeds),
      }),
    ).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
    expect(await db().payment.count({ where: { checkoutId: id } })).toBe(5);
  });

  it("one address: at most 10 declines across checkouts in 15 minutes; another address still pays", async () => {
    const from = address();
    const page = pageCaller(undefined, from);
    const checkouts = [await newCheckout(), await newCheckout(), await newCheckout()];
    for (let i = 0; i < 10; i++)
      expect(
        (
          await page.checkoutPage.pay({
            id: checkouts[i % 2],
            accept_terms: true,
            method: card(testCards.declined),
          })
        ).outcome,
      ).toBe("declined");
    await expect(
      page.checkoutPage.pay({
        id: checkouts[2],
        accept_terms: true,
        method: card(testCards.succeeds),
      }),
    ).rejects.toMatchObject({ cause: { code: "rate_limited" } });
    expect(await db().payment.count({ where: { checkoutId: checkouts[2] } })).toBe(0);
    expect(
      (
        await pageCaller(undefined, address()).checkoutPage.pay({
          id: checkouts[2],
          accept_terms: true,
          method: card(testCards.succeeds),
        })
      ).outcome,
    ).toBe("paid");
  });

  it("one address: at most 30 pay attempts in 15 minutes, whatever their outcome", async () => {
    const page = pageCaller(undefined, address());
    const id = await newCheckout();
    expect(
      (await page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }))
        .outcome,
    ).toBe("paid");
    for (let i = 1; i < 30; i++)
      await expect(
        page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }),
      ).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
    await expect(
      page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }),
    ).rejects.toMatchObject({ cause: { code: "rate_limited" } });
  });
});
