/**
 * POST/GET/DELETE /price-watches through the REST route handlers with real linked tokens: the 201
 * PriceWatch and its set email (signed cancel link), every refusal code (409, nothing set), the
 * 422s (max_total below max_price says why), the 25 live watches at the edge, the list newest
 * first with pagination, another person's watch 404, cancelling (and again).
 */
import { describe, expect, it } from "vitest";
import { createItem, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { maxLiveWatches } from "./states";
import { watchOfCancelToken } from "./watch-emails";
import {
  cancelWatchVia,
  createBuyer,
  getWatch,
  listWatches,
  setWatch,
  watchableItem,
} from "../testing/watch-fixtures";

const watchBody = (itemId: number, overrides: Record<string, unknown> = {}) => ({
  catalog_item_id: String(itemId),
  max_price: 80,
  max_total: "100.00",
  ...overrides,
});

const codeOf = (answer: { status: number; body: { error?: { code: string } } }) =>
  `${answer.status} ${answer.body.error?.code}`;

describe("POST /price-watches", () => {
  it("201 active with every PriceWatch field, and the person emailed with a signed cancel link", async () => {
    const { token, person } = await createBuyer();
    const item = await watchableItem(10_000);
    const before = Date.now();
    const { status, body } = await setWatch(token, watchBody(item.id, { days: null }));
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: "active",
      catalog_item_id: String(item.id),
      title: item.title,
      size: "M",
      max_price: { amount: "80.00", currency: "CAD" },
      max_total: { amount: "100.00", currency: "CAD" },
      current_price: { amount: "100.00", currency: "CAD" },
      outcome: null,
      order_number: null,
      purchase_id: null,
      checkout_url: null,
    });
    expect(Number.isInteger(body.price_watch_id)).toBe(true);
    // days omitted or null: 7 days (docs/adr/0071-price-watch-api.md)
    const lasts = Date.parse(body.expires_at) - Date.parse(body.created_at);
    expect(lasts).toBe(7 * 24 * 3_600_000);
    expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 1000);
    const email = await db().emailMessage.findUniqueOrThrow({
      where: { dedupeKey: `price-watch-set:${body.price_watch_id}` },
    });
    expect(email).toMatchObject({ to: person.email, template: "price-watch-set" });
    const cancelUrl = new URL((email.props as { cancelUrl: string }).cancelUrl);
    expect(cancelUrl.pathname).toBe(`/price-watches/${body.price_watch_id}/cancel`);
    expect(watchOfCancelToken(cancelUrl.searchParams.get("token")!, new Date())).toBe(
      body.price_watch_id,
    );
  });

  it("422 for invalid fields, each named with the reason; max_total below max_price says why", async () => {
    const { token } = await createBuyer();
    const item = await watchableItem();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [watchBody(item.id, { max_total: 70 }), "max_total", /at least max_price/],
      [watchBody(item.id, { days: 31 }), "days", /at most 30/],
      [watchBody(item.id, { days: 0 }), "days", /at least 1/],
      [watchBody(item.id, { max_price: 12.345 }), "max_price", /two decimals/],
      [watchBody(item.id, { max_price: -5 }), "max_price", /more than 0/],
      [watchBody(item.id, { max_price: 0 }), "max_price", /more than 0/],
      [watchBody(item.id, { max_price: "0.00" }), "max_price", /more than 0/],
      [watchBody(item.id, { max_price: "NaN" }), "max_price", /two decimals/],
      [watchBody(item.id, { max_price: "1e3" }), "max_price", /two decimals/],
      [watchBody(item.id, { catalog_item_id: 12 }), "catalog_item_id", /item id/],
      [{ catalog_item_id: String(item.id) }, "max_price", /./],
    ];
    for (const [body, field, reason] of cases) {
      const answer = await setWatch(token, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.error.code).toBe("invalid_request");
      expect(answer.body.error.fields[field]).toMatch(reason);
    }
    const sized = await createItem({
      storeId: (await createStore({ agentCheckout: "direct" })).id,
      priceCents: 9000,
      sizes: ["S", "M"],
    });
    // size left out on an item in several sizes, none of them saved: 409 size_required (watch-size.integration.test.ts).
    expect((await setWatch(token, watchBody(sized.id))).body.error.code).toBe("size_required");
    expect((await setWatch(token, watchBody(sized.id, { size: "S" }))).body).toMatchObject({
      status: "active",
      size: "S",
    });
    expect(await db().priceWatch.count({ where: { itemId: item.id } })).toBe(0);
    // Unknown fields are ignored, as on every endpoint (reference 1.2.1; issue 12), not refused.
    expect((await setWatch(token, watchBody(item.id, { extra: true }))).status).toBe(201);
  });

  it("refuses with 409 and each watch code, setting nothing", async () => {
    const item = await watchableItem(10_000);
    const cheap = await watchableItem(7_000);
    const linkOnly = await watchableItem(10_000, { agentCheckout: "link" });
    const ok = await createBuyer();
    expect(codeOf(await setWatch(ok.token, watchBody(cheap.id)))).toBe("409 already_at_price");
    expect((await setWatch(ok.token, watchBody(cheap.id))).body.error.current_price).toEqual({
      amount: "70.00",
      currency: "CAD",
    });
    expect(codeOf(await setWatch(ok.token, watchBody(linkOnly.id)))).toBe(
      "409 store_requires_checkout_link",
    );
    // The conditions' item_available: a sold item, or its only size out of stock.
    const sold = await watchableItem(10_000);
    await db().item.update({ where: { id: sold.id }, data: { status: "sold" } });
    expect(codeOf(await setWatch(ok.token, watchBody(sold.id)))).toBe("409 item_unavailable");
    const outOfStock = await watchableItem(10_000);
    await db().variant.updateMany({ where: { itemId: outOfStock.id }, data: { quantity: 0 } });
    expect(codeOf(await setWatch(ok.token, watchBody(outOfStock.id)))).toBe("409 item_unavailable");
    expect(
      codeOf(await setWatch((await createBuyer({ limits: null })).token, watchBody(item.id))),
    ).toBe("409 spending_limit_not_set");
    expect(
      codeOf(await setWatch((await createBuyer({ paused: true })).token, watchBody(item.id))),
    ).toBe("409 purchases_paused");
    const perOrder = await setWatch(
      (await createBuyer({ limits: [9_000, 500_000] })).token,
      watchBody(item.id),
    );
    expect(codeOf(perOrder)).toBe("409 over_spending_limit");
    expect(perOrder.body.error).toMatchObject({
      limit: { amount: "90.00" },
      room: { amount: "90.00" },
    });
    expect(
      codeOf(await setWatch((await createBuyer({ card: null })).token, watchBody(item.id))),
    ).toBe("409 no_saved_card");
    expect(
      codeOf(await setWatch((await createBuyer({ address: null })).token, watchBody(item.id))),
    ).toBe("409 address_not_on_file");
    const first = await setWatch(ok.token, watchBody(item.id));
    expect(first.status).toBe(201);
    const again = await setWatch(ok.token, watchBody(item.id, { max_price: 70 }));
    expect(codeOf(again)).toBe("409 already_watching");
    expect(again.body.error.price_watch_id).toBe(first.body.price_watch_id);
    expect(codeOf(await setWatch(ok.token, watchBody(2_000_000_000)))).toBe("404 not_found");
    expect(
      await db().priceWatch.count({
        where: { itemId: { in: [item.id, cheap.id, linkOnly.id, sold.id, outOfStock.id] } },
      }),
    ).toBe(1);
  });

  it("the purchases switch: an assistant switched off gets agent_purchases_unavailable (409)", async () => {
    const { token, agent } = await createBuyer();
    await db().apiClient.update({ where: { id: agent.id }, data: { purchasesEnabled: false } });
    expect(codeOf(await setWatch(token, watchBody((await watchableItem()).id)))).toBe(
      "409 agent_purchases_unavailable",
    );
  });

  it(`${maxLiveWatches} live watches per person: the ${maxLiveWatches}th is set, the next refused; cancelling one makes room`, async () => {
    const { token } = await createBuyer();
    const items = await Promise.all(
      Array.from({ length: maxLiveWatches + 1 }, () => watchableItem(10_000)),
    );
    const ids: number[] = [];
    for (const item of items.slice(0, maxLiveWatches)) {
      const answer = await setWatch(token, watchBody(item.id));
      expect(answer.status).toBe(201);
      ids.push(answer.body.price_watch_id);
    }
    const over = await setWatch(token, watchBody(items[maxLiveWatches].id));
    expect(codeOf(over)).toBe("409 too_many_watches");
    expect((await cancelWatchVia(token, ids[0])).status).toBe(200);
    expect((await setWatch(token, watchBody(items[maxLiveWatches].id))).status).toBe(201);
  });

  it("two concurrent requests for one item set one watch", async () => {
    const { token } = await createBuyer();
    const item = await watchableItem();
    const answers = await Promise.all([
      setWatch(token, watchBody(item.id)),
      setWatch(token, watchBody(item.id)),
    ]);
    expect(answers.map(codeOf).sort()).toEqual(["201 undefined", "409 already_watching"]);
  });
});

describe("GET and DELETE /price-watches", () => {
  it("lists the person's watches newest first, paginated like search; another person's watch is 404", async () => {
    const { token } = await createBuyer();
    const items = await Promise.all([1, 2, 3].map(() => watchableItem()));
    const ids: number[] = [];
    for (const item of items)
      ids.push((await setWatch(token, watchBody(item.id))).body.price_watch_id);
    const page1 = await listWatches(token, "?per_page=2");
    expect(page1.status).toBe(200);
    expect(
      page1.body.data.map((watch: { price_watch_id: number }) => watch.price_watch_id),
    ).toEqual([ids[2], ids[1]]);
    expect(page1.body.pagination).toEqual({ page: 1, per_page: 2, total: 3, last_page: 2 });
    const page2 = await listWatches(token, "?per_page=2&page=2");
    expect(
      page2.body.data.map((watch: { price_watch_id: number }) => watch.price_watch_id),
    ).toEqual([ids[0]]);
    expect((await listWatches(token, "?per_page=49")).body.error.fields.per_page).toMatch(
      /at most 48/,
    );
    expect((await getWatch(token, ids[0])).body).toMatchObject({
      price_watch_id: ids[0],
      status: "active",
    });

    const stranger = await createBuyer();
    expect((await listWatches(stranger.token)).body.data).toEqual([]);
    expect(codeOf(await getWatch(stranger.token, ids[0]))).toBe("404 not_found");
    expect(codeOf(await cancelWatchVia(stranger.token, ids[0]))).toBe("404 not_found");
    expect((await getWatch(token, ids[0])).body.status).toBe("active");
  });

  it("DELETE cancels (outcome cancelled, the person emailed); again answers it as it is", async () => {
    const { token, person } = await createBuyer();
    const { body } = await setWatch(token, watchBody((await watchableItem()).id));
    const cancelled = await cancelWatchVia(token, body.price_watch_id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", outcome: "cancelled" });
    expect((await cancelWatchVia(token, body.price_watch_id)).body).toMatchObject({
      status: "cancelled",
    });
    const emails = await db().emailMessage.findMany({
      where: { to: person.email, template: "price-watch-ended" },
    });
    expect(emails).toHaveLength(1);
    expect(emails[0].props).toMatchObject({ outcome: "cancelled" });
  });
});
