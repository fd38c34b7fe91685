/**
 * POST /price-watches/preview (1.9.0) through the operation table's REST handler and through the
 * procedure: every condition in its fixed order with its values, each failing on its own, the 409s
 * of POST /price-watches reported as failed conditions, nothing written (no watch, no quote), the
 * 90-day-low warning with a price history and a moved clock; drop_percent on POST /price-watches
 * (the target rounded down to the cent, exactly one of max_price and drop_percent).
 */
import { describe, expect, it } from "vitest";
import { createItem, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { operationHandler } from "../edges/rest/rest-router";
import { createCaller } from "../edges/trpc/caller";
import { createInnerContext } from "../platform/trpc/context";
import { setItemPrice } from "../catalogue/set-item-price";
import { readPriceHistory } from "../catalogue";
import { poolSql } from "../platform/sql";
import { callRoute } from "../testing/rest";
import { createBuyer, setWatch, watchableItem } from "../testing/watch-fixtures";
import { watchConditionNames } from "./conditions";
import { dropTargetCents } from "./drop-percent";
import { maxLiveWatches } from "./states";

const previewRoute = operationHandler("POST /api/v1/price-watches/preview");

const preview = async (token: string, body: Record<string, unknown>) => {
  const response = await callRoute(previewRoute, { path: "/price-watches/preview", token, body });
  return { status: response.status, body: await response.json() };
};

type Condition = { condition: string; passed: boolean; [key: string]: unknown };

const failedOf = (body: { conditions: Condition[] }) =>
  body.conditions.filter((condition) => !condition.passed).map((condition) => condition.condition);

const body = (itemId: number, overrides: Record<string, unknown> = {}) => ({
  catalog_item_id: String(itemId),
  max_price: 80,
  max_total: 200,
  ...overrides,
});

describe("POST /price-watches/preview", () => {
  it("200 would_buy_now with every condition in the fixed order and its values; writes nothing", async () => {
    const { token, person } = await createBuyer();
    const item = await watchableItem(7_000);
    const quotesBefore = await db().quote.count({ where: { personId: person.id } });
    const { status, body: answer } = await preview(token, body(item.id));
    expect(status).toBe(200);
    expect(answer.would_buy_now).toBe(true);
    expect(answer).toMatchObject({
      catalog_item_id: String(item.id),
      size: "M",
      current_price: { amount: "70.00", currency: "CAD" },
      max_price: { amount: "80.00" },
      max_total: { amount: "200.00" },
      drop_percent: null,
      warnings: [],
    });
    expect(answer.conditions.map((condition: Condition) => condition.condition)).toEqual([
      ...watchConditionNames,
    ]);
    const byName = new Map<string, Condition>(
      answer.conditions.map((condition: Condition) => [condition.condition, condition]),
    );
    expect(byName.get("max_price")).toMatchObject({
      passed: true,
      price: { amount: "70.00" },
      max_price: { amount: "80.00" },
    });
    const total = byName.get("max_total") as unknown as { total: { amount: string } };
    // $70 + shipping + 13% HST to Toronto: more than the price, within $200.
    expect(Number(total.total.amount)).toBeGreaterThan(70);
    expect(byName.get("per_order_limit")).toMatchObject({ limit: { amount: "1000.00" } });
    expect(byName.get("spending_room")).toMatchObject({ room: { amount: "5000.00" } });
    expect(byName.get("agent_checkout")).toMatchObject({ agent_checkout: "direct" });
    expect(byName.get("market")).toMatchObject({ province: "ON" });
    expect(byName.get("watch_limit")).toMatchObject({ live_watches: 0, max_watches: 25 });
    // Nothing written: no watch, no quote, no email.
    expect(await db().priceWatch.count({ where: { personId: person.id } })).toBe(0);
    expect(await db().quote.count({ where: { personId: person.id } })).toBe(quotesBefore);
  });

  it("each condition fails on its own, and what POST /price-watches refuses with 409 is a failed condition", async () => {
    const item = await watchableItem(7_000);
    const ok = await createBuyer();
    const check = async (
      expected: string[],
      token: string,
      request: Record<string, unknown>,
      label = expected.join(","),
    ) => {
      const answer = await preview(token, request);
      expect(answer.status, label).toBe(200);
      expect(failedOf(answer.body), label).toEqual(expected);
      expect(answer.body.would_buy_now, label).toBe(false);
    };
    await check(["max_price"], ok.token, body((await watchableItem(10_000)).id));
    await check(["max_total"], ok.token, body(item.id, { max_total: 80 }));
    const sold = await watchableItem(7_000);
    await db().item.update({ where: { id: sold.id }, data: { status: "sold" } });
    // A sold item has no total either.
    await check(["item_available", "max_total"], ok.token, body(sold.id));
    const switchedOff = await createBuyer();
    await db().apiClient.update({
      where: { id: switchedOff.agent.id },
      data: { purchasesEnabled: false },
    });
    await check(["assistant"], switchedOff.token, body(item.id));
    await check(["purchases_paused"], (await createBuyer({ paused: true })).token, body(item.id));
    await check(
      ["per_order_limit"],
      (await createBuyer({ limits: [9_000, 500_000] })).token,
      body(item.id, { max_total: 100 }),
    );
    await check(
      ["spending_room"],
      (await createBuyer({ limits: [50_000, 9_000] })).token,
      body(item.id, { max_total: 100 }),
    );
    await check(
      ["per_order_limit", "spending_room"],
      (await createBuyer({ limits: null })).token,
      body(item.id),
      "spending_limit_not_set",
    );
    await check(
      ["agent_checkout"],
      ok.token,
      body((await watchableItem(7_000, { agentCheckout: "link" })).id),
    );
    // No address: no total to it either.
    await check(
      ["max_total", "saved_address"],
      (await createBuyer({ address: null })).token,
      body(item.id),
    );
    await check(
      ["market"],
      (
        await createBuyer({
          address: {
            name: "Québec Buyer",
            line1: "1 rue Saint-Jean",
            city: "Québec",
            province: "QC",
            postal_code: "G1R 1R5",
          },
        })
      ).token,
      body(item.id),
    );
    await check(["saved_card"], (await createBuyer({ card: null })).token, body(item.id));
    const multi = await createItem({
      storeId: (await createStore({ agentCheckout: "direct" })).id,
      priceCents: 7_000,
      sizes: ["S", "L"],
    });
    await check(["size", "max_total"], ok.token, body(multi.id));
    // already_watching: a watch on the item is live (set while the price was over max_price).
    const watched = await watchableItem(10_000);
    const set = await setWatch(ok.token, body(watched.id));
    expect(set.status).toBe(201);
    const again = await preview(ok.token, body(watched.id, { max_price: 120 }));
    expect(failedOf(again.body)).toEqual(["already_watching"]);
    expect(again.body.conditions.at(-1)).toMatchObject({
      condition: "already_watching",
      price_watch_id: set.body.price_watch_id,
    });
  });

  it(`the ${maxLiveWatches}-watch limit is a failed condition, not a 409`, async () => {
    const { token, person, agent } = await createBuyer();
    const store = await createStore({ agentCheckout: "direct" });
    const items = await Promise.all(
      Array.from({ length: maxLiveWatches }, () =>
        createItem({ storeId: store.id, priceCents: 10_000 }),
      ),
    );
    await db().priceWatch.createMany({
      data: items.map((watched) => ({
        personId: person.id,
        clientId: agent.id,
        itemId: watched.id,
        maxPriceCents: 5_000,
        maxTotalCents: 10_000,
        expiresAt: new Date(Date.now() + 86_400_000),
      })),
    });
    const item = await watchableItem(7_000);
    const { status, body: answer } = await preview(token, body(item.id));
    expect(status).toBe(200);
    expect(failedOf(answer)).toEqual(["watch_limit"]);
    expect(answer.conditions.find((c: Condition) => c.condition === "watch_limit")).toMatchObject({
      live_watches: maxLiveWatches,
      max_watches: maxLiveWatches,
    });
    // POST refuses the same body with its 409.
    expect((await setWatch(token, body((await watchableItem(10_000)).id))).body.error.code).toBe(
      "too_many_watches",
    );
  });

  it("404 for an unknown item, 422 naming the fields, 403 without purchase:write", async () => {
    const { token } = await createBuyer();
    const item = await watchableItem(7_000);
    expect((await preview(token, body(2_000_000_000))).status).toBe(404);
    const both = await preview(token, body(item.id, { drop_percent: 10 }));
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.error.fields)).toEqual(["drop_percent"]);
    const { token: noScope } = await createBuyer({
      scope: "catalog:read checkout:write",
      tick: [],
    });
    expect((await preview(noScope, body(item.id))).status).toBe(403);
  });

  it("warns when max_price is below the item's 90-day low, from the price history at the caller's clock", async () => {
    const { person, agent } = await createBuyer();
    const listed = new Date(Date.now() - 200 * 86_400_000);
    const item = await createItem({
      storeId: (await createStore({ agentCheckout: "direct" })).id,
      priceCents: 10_000,
      createdAt: listed,
    });
    // 150 days ago it was $60 for a day; it is $100 since.
    const day = 86_400_000;
    await setItemPrice(
      db(),
      { itemId: item.id, priceCents: 6_000 },
      { now: new Date(Date.now() - 150 * day) },
    );
    await setItemPrice(
      db(),
      { itemId: item.id, priceCents: 10_000 },
      { now: new Date(Date.now() - 149 * day) },
    );
    const callerAt = (now: Date) =>
      createCaller(
        createInnerContext({
          requestId: "test",
          actor: {
            kind: "client",
            clientId: agent.id,
            tokenId: "tok_test",
            scopes: ["purchase:write"],
            personId: person.id,
          },
          clock: { now: () => now },
        }),
      );
    const request = { catalog_item_id: String(item.id), max_price: "70", max_total: "200" };
    // Today the 90-day low is $100: $70 is below it.
    const today = await callerAt(new Date()).priceWatches.preview(request);
    const history = await readPriceHistory(poolSql, item.id, new Date());
    expect(history!.lowest90Cents).toBe(10_000);
    expect(today.warnings).toEqual([
      expect.objectContaining({
        code: "max_price_below_90_day_low",
        lowest_90_days: { amount: "100.00", currency: "CAD" },
      }),
    ]);
    // With the clock moved back 100 days, the $60 day is within 90 days: $70 is above the low.
    const earlier = await callerAt(new Date(Date.now() - 100 * day)).priceWatches.preview(request);
    expect(earlier.warnings).toEqual([]);
  });
});

describe("drop_percent on POST /price-watches", () => {
  it("sets the target that much below the price now, rounded down to the cent, and shows both", async () => {
    expect(dropTargetCents(1_999, 15)).toBe(1_699); // 16.9915
    expect(dropTargetCents(999, 33)).toBe(669); // 6.6933
    expect(dropTargetCents(10_000, 90)).toBe(1_000);
    expect(dropTargetCents(1, 1)).toBe(0);
    const { token } = await createBuyer();
    const item = await watchableItem(1_999);
    const { status, body: watch } = await setWatch(token, {
      catalog_item_id: String(item.id),
      drop_percent: 15,
      max_total: 40,
    });
    expect(status).toBe(201);
    expect(watch).toMatchObject({ max_price: { amount: "16.99" }, drop_percent: 15 });
    const row = await db().priceWatch.findUniqueOrThrow({ where: { id: watch.price_watch_id } });
    expect(row).toMatchObject({ maxPriceCents: 1_699, dropPercent: 15 });
    const priced = await setWatch(token, body((await watchableItem(10_000)).id));
    expect(priced.body.drop_percent).toBeNull();
    // The preview makes the same target.
    const { body: previewed } = await preview(token, {
      catalog_item_id: String((await watchableItem(999)).id),
      drop_percent: 33,
      max_total: 40,
    });
    expect(previewed).toMatchObject({ max_price: { amount: "6.69" }, drop_percent: 33 });
  });

  it("422 naming the field: both, neither, out of range, not whole, max_total below the target", async () => {
    const { token } = await createBuyer();
    const item = await watchableItem(10_000);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ max_price: 80, drop_percent: 10 }, ["drop_percent"]],
      [{}, ["max_price", "drop_percent"]],
      [{ drop_percent: 0 }, ["drop_percent"]],
      [{ drop_percent: 91 }, ["drop_percent"]],
      [{ drop_percent: 12.5 }, ["drop_percent"]],
      [{ drop_percent: 10, max_total: 80 }, ["max_total"]],
    ];
    for (const [fields, named] of cases) {
      const answer = await setWatch(token, {
        catalog_item_id: String(item.id),
        max_total: 200,
        ...fields,
      });
      expect(answer.status, JSON.stringify(fields)).toBe(422);
      expect(Object.keys(answer.body.error.fields).sort(), JSON.stringify(fields)).toEqual(
        [...named].sort(),
      );
    }
    expect(await db().priceWatch.count({ where: { itemId: item.id } })).toBe(0);
  });
});
