/**
 * The cancel page's procedures through the page caller (B3-18): the link from the copy email, GET
 * (inspectCancel) never changes anything, POST (cancel) cancels once, a second POST says already
 * cancelled, after cancel_until it says too late; a forged or foreign token is refused.
 */
import { describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../prisma/factories/purchases";
import { fixedClock } from "../platform/clock";
import { db } from "../platform/db";
import { createLinkToken } from "../platform/mail/links";
import { cancelToken, copyEmailKey } from "./purchase-emails";
import { pageCaller } from "../testing/page-caller";
import { sandboxLedger } from "../testing/purchase-ledger";
import { sandboxProvider } from "../payments/sandbox";
import { chargeDuePurchase } from "./charge-purchase";
import { disconnectApp } from "../oauth";
import { agentWithPerson, buy, directItem, getPurchase, quoteOf } from "../testing/agent-purchases";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: { code?: string; cause?: { code?: string } }) =>
      error.cause?.code ?? error.code ?? String(error),
  );

/** The token in the copy email's cancel link, as the person receives it. */
const tokenFromEmail = async (purchaseId: string) => {
  const email = await db().emailMessage.findUniqueOrThrow({
    where: { dedupeKey: copyEmailKey(purchaseId) },
  });
  const url = new URL((email.props as { cancelUrl: string }).cancelUrl);
  expect(url.pathname).toBe(`/purchases/${purchaseId}/cancel`);
  return url.searchParams.get("token")!;
};

describe("purchase cancel page", () => {
  it("GET shows the purchase and changes nothing, however often it is opened", async () => {
    const { purchase } = await createHeldPurchase();
    const token = await tokenFromEmail(purchase.id);
    const emailsBefore = await db().emailMessage.count();
    for (let i = 0; i < 3; i++) {
      expect(
        await pageCaller().purchasePage.inspectCancel({ id: purchase.id, token }),
      ).toMatchObject({
        purchase_id: purchase.id,
        status: "held",
        order_number: purchase.orderNumber,
        grand_total: "50.00",
        can_cancel: true,
        cancel_until: purchase.cancelUntil.toISOString(),
      });
    }
    expect(await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
      status: "held",
      updatedAt: purchase.updatedAt,
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "authorized",
      holds: 1,
      captures: 0,
      releases: 0,
    });
    expect(await db().emailMessage.count()).toBe(emailsBefore);
  });

  it("GET answers what the page shows: state, what was bought, the assistant's name, the person's zone", async () => {
    const { purchase, agent, item } = await createHeldPurchase();
    await db().shippingAddress.create({
      data: {
        personId: purchase.personId,
        name: "Ana Tremblay",
        line1: "1 Rue Sainte-Catherine",
        city: "Halifax",
        province: "NS",
        postalCode: "B3H 1A1",
      },
    });
    const token = await tokenFromEmail(purchase.id);
    const page = await pageCaller().purchasePage.inspectCancel({ id: purchase.id, token });
    expect(page).toMatchObject({
      state: "cancellable",
      assistant: agent.name,
      time_zone: "America/Halifax",
      grand_total_cents: 5000,
      charged_at: null,
    });
    expect(page.summary.orderNumber).toBe(purchase.orderNumber);
    expect(page.summary.stores[0].items[0]).toMatchObject({ title: item.title, size: "M" });
  });

  it("the page's state after the charge, after an item sold elsewhere, and past the deadline while still held", async () => {
    const charged = await createHeldPurchase();
    const sold = await createHeldPurchase();
    const late = await createHeldPurchase();
    const after = (purchase: { cancelUntil: Date }) =>
      fixedClock(new Date(purchase.cancelUntil.getTime() + 60_000));
    const provider = sandboxProvider();
    await chargeDuePurchase(db(), charged.purchase.id, {
      now: after(charged.purchase).now(),
      provider,
      sandboxMailbox: true,
    });
    await db().item.update({ where: { id: sold.item.id }, data: { status: "sold" } });
    await chargeDuePurchase(db(), sold.purchase.id, {
      now: after(sold.purchase).now(),
      provider,
      sandboxMailbox: true,
    });
    const inspect = async (purchase: { id: string; cancelUntil: Date }) =>
      pageCaller(after(purchase)).purchasePage.inspectCancel({
        id: purchase.id,
        token: await tokenFromEmail(purchase.id),
      });
    const paid = await inspect(charged.purchase);
    expect(paid).toMatchObject({ state: "charged", status: "paid", can_cancel: false });
    expect(paid.charged_at).not.toBeNull();
    expect(await inspect(sold.purchase)).toMatchObject({
      state: "cancelled",
      reason: "item_sold",
    });
    expect(await inspect(late.purchase)).toMatchObject({ state: "too_late", status: "held" });
  });

  it("POST cancels; a second POST answers already cancelled; one release at the processor", async () => {
    const { purchase } = await createHeldPurchase();
    const token = await tokenFromEmail(purchase.id);
    expect(await pageCaller().purchasePage.cancel({ id: purchase.id, token })).toEqual({
      purchase_id: purchase.id,
      status: "cancelled",
      already_cancelled: false,
      reason: "cancelled_by_person",
    });
    expect(await pageCaller().purchasePage.cancel({ id: purchase.id, token })).toMatchObject({
      status: "cancelled",
      already_cancelled: true,
    });
    expect(await pageCaller().purchasePage.inspectCancel({ id: purchase.id, token })).toMatchObject(
      { status: "cancelled", can_cancel: false, charges_at: null, reason: "cancelled_by_person" },
    );
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  });

  it("after cancel_until the page says too late (the link still opens) and the POST is refused with too_late_to_cancel", async () => {
    const { purchase } = await createHeldPurchase();
    const token = await tokenFromEmail(purchase.id);
    const late = fixedClock(new Date(purchase.cancelUntil.getTime() + 60_000));
    expect(
      await pageCaller(late).purchasePage.inspectCancel({ id: purchase.id, token }),
    ).toMatchObject({ status: "held", can_cancel: false });
    expect(await codeOf(pageCaller(late).purchasePage.cancel({ id: purchase.id, token }))).toBe(
      "too_late_to_cancel",
    );
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", releases: 0 });
  });

  it("a forged token, one for another purchase or another purpose, or one long expired is refused with invalid_link", async () => {
    const { purchase } = await createHeldPurchase();
    const other = await createHeldPurchase();
    const tokens = [
      "forged.token",
      cancelToken(other.purchase),
      createLinkToken({
        purpose: "verify-email",
        subject: purchase.id,
        expiresAt: new Date(Date.now() + 60_000),
      }),
    ];
    for (const token of tokens) {
      expect(
        await codeOf(pageCaller().purchasePage.inspectCancel({ id: purchase.id, token })),
      ).toBe("invalid_link");
      expect(await codeOf(pageCaller().purchasePage.cancel({ id: purchase.id, token }))).toBe(
        "invalid_link",
      );
    }
    const weeksLater = fixedClock(new Date(purchase.cancelUntil.getTime() + 8 * 24 * 3_600_000));
    expect(
      await codeOf(
        pageCaller(weeksLater).purchasePage.inspectCancel({
          id: purchase.id,
          token: await tokenFromEmail(purchase.id),
        }),
      ),
    ).toBe("invalid_link");
    expect((await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).status).toBe(
      "held",
    );
  });

  it("the person who disconnected the assistant still cancels its held purchase from the email (B2-18): the app's token is dead, the link is not", async () => {
    const { person, agent, token: appToken } = await agentWithPerson();
    const bought = await buy(
      appToken,
      (await quoteOf(appToken, [(await directItem()).id])).quote_id,
    );
    expect(bought.status).toBe(201);
    const purchaseId = bought.body.purchase_id as string;
    expect(
      await disconnectApp(db(), { personId: person.id, clientId: agent.id, now: new Date() }),
    ).toBe(1);
    expect((await getPurchase(appToken, purchaseId)).status).toBe(401);
    const token = await tokenFromEmail(purchaseId);
    expect(await pageCaller().purchasePage.cancel({ id: purchaseId, token })).toMatchObject({
      status: "cancelled",
    });
    expect(await sandboxLedger(purchaseId)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  });

  it("two cancels at once (a double click, two tabs): one cancels, the other says already cancelled; one release, one email (B3-18)", async () => {
    const { purchase } = await createHeldPurchase();
    const token = await tokenFromEmail(purchase.id);
    const answers = await Promise.all(
      [0, 1].map(() => pageCaller().purchasePage.cancel({ id: purchase.id, token })),
    );
    expect(answers.map((answer) => answer.already_cancelled).sort()).toEqual([false, true]);
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `purchase-closed:${purchase.id}` } }),
    ).toBe(1);
  });

  it("a cancelled purchase gives its amount back to the 30-day room (B3-11)", async () => {
    const { person, token: appToken } = await agentWithPerson();
    const [first, second] = [
      await quoteOf(appToken, [(await directItem(2_500)).id]),
      await quoteOf(appToken, [(await directItem(2_500)).id]),
    ];
    // Room for exactly one of the two.
    const totalCents = Math.round(Number(first.totals.grand_total.amount) * 100);
    await db().person.update({
      where: { id: person.id },
      data: { spendingLimitPer30DaysCents: totalCents },
    });
    const bought = await buy(appToken, first.quote_id);
    expect(bought.status).toBe(201);
    const over = await buy(appToken, second.quote_id);
    expect([over.status, over.body.error.code]).toEqual([409, "over_spending_limit"]);
    const token = await tokenFromEmail(bought.body.purchase_id);
    await pageCaller().purchasePage.cancel({ id: bought.body.purchase_id, token });
    expect((await buy(appToken, second.quote_id)).status).toBe(201);
  });
});
