/** The expire-checkout Inngest function, run with @inngest/test against a real database. */
import { InngestTestEngine } from "@inngest/test";
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../../prisma/factories";
import { db } from "../../../platform/db";
import { createCheckoutVia, createQuoteVia } from "../../../testing/checkout-fixtures";
import { checkoutCreatedEvent } from "../../../platform/jobs/events";
import { expireCheckout } from "../../../checkout/expire-checkout-job";

let token: string;
let storeId: number;

beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

const newCheckout = async () => {
  const item = await createItem({ storeId });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: "a@example.ca",
  });
  return { itemId: item.id, id: JSON.parse(text).checkout_id as string };
};

// The engine does not wait out sleeps: the mocked sleep step returns at once, as the server would at expires_at.
const run = (checkoutId: string) =>
  new InngestTestEngine({ function: expireCheckout }).execute({
    events: [{ name: checkoutCreatedEvent, data: { checkout_id: checkoutId } }],
    steps: [{ id: "wait-for-expiry", handler: () => undefined }],
  });

describe("expire-checkout function", () => {
  it("sleeps until expires_at read from the row, then expires the checkout and frees its items", async () => {
    const { id, itemId } = await newCheckout();
    // The sandbox helper moves the due time; the function must use the row's value, not "30 minutes".
    const due = new Date(Date.now() - 1000);
    await db().checkout.update({ where: { id }, data: { expiresAt: due } });
    const { result, ctx } = await run(id);
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-for-expiry", due.toISOString());
    expect(result).toEqual({ id, expired: true });
    expect((await db().checkout.findUniqueOrThrow({ where: { id } })).status).toBe("expired");
    expect((await db().variant.findFirstOrThrow({ where: { itemId } })).quantity).toBe(1);
  });

  it("is a no-op for a checkout already cancelled, and for one not yet due when it wakes early", async () => {
    const cancelled = await newCheckout();
    await db().checkout.update({ where: { id: cancelled.id }, data: { status: "cancelled" } });
    const { result, ctx } = await run(cancelled.id);
    expect(result).toEqual({ id: cancelled.id, expired: false, status: "cancelled" });
    expect(ctx.step.sleepUntil).not.toHaveBeenCalled();
    const early = await newCheckout();
    const woke = await run(early.id);
    expect(woke.result).toEqual({ id: early.id, expired: false });
    expect((await db().checkout.findUniqueOrThrow({ where: { id: early.id } })).status).toBe(
      "awaiting_payment",
    );
    expect(
      (await db().variant.findFirstOrThrow({ where: { itemId: early.itemId } })).quantity,
    ).toBe(0);
  });

  it("fails without retrying for an unknown checkout", async () => {
    const { error } = await run("chk_000000000000000000000000");
    expect(String((error as Error)?.message ?? error)).toContain("no checkout");
  });
});
