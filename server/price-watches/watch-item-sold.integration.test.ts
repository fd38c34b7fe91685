/**
 * A watch ends item_sold when its item sells to someone else, however it sells (the reference's
 * watch table: active -> item sells to someone else -> item_sold, the watch ends; the person is
 * emailed when a watch ends). Selling an item's last stock records a `sold` catalogue event in the
 * statement that marks it sold (catalogue's stock store), and the price-change processor's watch
 * handler ends the item's live watches from it, as it ends them when a price change finds the item
 * gone: once, with the ended email, whoever processes it and however often. Watches on other items
 * are untouched; an alert on the sold item ends too (stopped, no email).
 */
import { describe, expect, it } from "vitest";
import { createPartner } from "../../prisma/factories";
import { db } from "../platform/db";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { markSandboxItemSold } from "../edges/ops/purchase-commands";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";
import { pageCaller } from "../testing/page-caller";
import { sandboxCard } from "../testing/paid-orders";
import { createBuyer, getWatch, setWatch, watchableItem } from "../testing/watch-fixtures";

const process = () => processPriceChanges(db(), { now: () => new Date() });

/** A buyer with a watch on a $100 item (buy at $80 or less), and one on another item. */
const watching = async () => {
  const buyer = await createBuyer();
  const [item, other] = [await watchableItem(10_000), await watchableItem(10_000)];
  const set = async (itemId: number) => {
    const { status, body } = await setWatch(buyer.token, {
      catalog_item_id: String(itemId),
      max_price: 80,
      max_total: 100,
    });
    expect(status).toBe(201);
    return body.price_watch_id as number;
  };
  return { ...buyer, item, other, watchId: await set(item.id), otherWatchId: await set(other.id) };
};

/** Another shopper pays a hosted checkout for the item (its one unit). */
const boughtAtCheckout = async (itemId: number) => {
  const token = await (await createPartner({ scopes: ["catalog:read", "checkout:write"] })).token();
  const quote = await createQuoteVia(token, [{ item_id: itemId }]);
  expect(quote.response.status).toBe(201);
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: "someone-else@example.ca",
  });
  const id = JSON.parse(text).checkout_id as string;
  const paid = await pageCaller().checkoutPage.pay({ id, accept_terms: true, method: sandboxCard });
  expect(paid.outcome).toBe("paid");
};

const endedEmails = (to: string) =>
  db().emailMessage.findMany({ where: { to, template: "price-watch-ended" } });

const expectEndedOnce = async (setup: Awaited<ReturnType<typeof watching>>) => {
  const { token, person, watchId, otherWatchId } = setup;
  expect((await getWatch(token, watchId)).body).toMatchObject({
    status: "item_sold",
    outcome: "item_sold",
  });
  const emails = await endedEmails(person.email);
  expect(emails).toHaveLength(1);
  expect(emails[0].props).toMatchObject({ outcome: "item_sold" });
  // Nothing bought for the watcher, and the watch on another item goes on.
  expect(await db().purchase.count({ where: { personId: person.id } })).toBe(0);
  expect((await getWatch(token, otherWatchId)).body).toMatchObject({
    status: "active",
    outcome: null,
  });
};

describe("a watched item that sells to someone else", () => {
  it("bought by another shopper's hosted checkout: the watch ends item_sold, one ended email, even with two processors and a rerun", async () => {
    const setup = await watching();
    await boughtAtCheckout(setup.item.id);
    await Promise.all([process(), process()]);
    await process();
    await expectEndedOnce(setup);
    const events = await db().priceChangeEvent.findMany({
      where: { itemId: setup.item.id, kind: "sold" },
    });
    expect(events).toHaveLength(1);
    expect(events[0].processedAt).not.toBeNull();
  });

  it("sold elsewhere (the sandbox's item-sold): the watch ends item_sold, one ended email", async () => {
    const setup = await watching();
    await markSandboxItemSold(String(setup.item.id));
    await process();
    await expectEndedOnce(setup);
    // Selling it again is refused and records nothing more.
    await expect(markSandboxItemSold(String(setup.item.id))).rejects.toThrow();
    await process();
    expect(await endedEmails(setup.person.email)).toHaveLength(1);
  });

  it("ends a price alert on it (stopped, no email); an alert on another item stays", async () => {
    const setup = await watching();
    const alert = (itemId: number) =>
      db().priceAlert.create({
        data: {
          id: `alr_${itemId}_${Date.now()}`,
          personId: setup.person.id,
          clientId: setup.agent.id,
          itemId,
          targetPriceCents: 5_000,
        },
      });
    const [onSold, onOther] = [await alert(setup.item.id), await alert(setup.other.id)];
    await markSandboxItemSold(String(setup.item.id));
    await process();
    const read = (id: string) => db().priceAlert.findUniqueOrThrow({ where: { id } });
    expect(await read(onSold.id)).toMatchObject({ status: "stopped", notifiedAt: null });
    expect((await read(onSold.id)).stoppedAt).not.toBeNull();
    expect(await read(onOther.id)).toMatchObject({ status: "active", stoppedAt: null });
    expect(
      await db().emailMessage.count({ where: { to: setup.person.email, template: "price-alert" } }),
    ).toBe(0);
  });
});
