/**
 * Any-of price watch groups end to end below the HTTP edge (issue 29 §4, ADR 0118): set over REST
 * with real linked tokens, prices changed through the one price-change path, events processed as
 * the sweep and the Inngest function do. Create and its refusals; the 25-watch limit counting a
 * group once; the spec's race (two alternatives dropping in ONE sale transaction, TWO processors at
 * once: exactly one purchase); an alternative over the total leaving the group to a later one;
 * needs_you; cancel (also through an alternative); expiry; the person's standing; the emails.
 */
import { describe, expect, it } from "vitest";
import { db, inTransaction } from "../../platform/db";
import { testCards } from "../../payments/sandbox-cards";
import { processPriceChanges } from "../../price-changes/process-price-changes";
import { setItemPrices } from "../../catalogue/set-item-price";
import { operationHandler } from "../../edges/rest/rest-router";
import { callRoute } from "../../testing/rest";
import { sandboxLedger } from "../../testing/purchase-ledger";
import {
  cancelWatchVia,
  createBuyer,
  listWatches,
  setWatch,
  watchableItem,
  type BuyerOptions,
} from "../../testing/watch-fixtures";
import { maxLiveWatches } from "../states";
import { executingRetryMs, expireDueWatches, resumeExecutingWatches } from "../watch-jobs";
import { afterRefusal } from "../record-watch-purchase";
import { completeLateAuthorize } from "../../purchases/complete-late-authorize";
import { paymentProvider } from "../../payments";
import { claimAlternative } from "./alternatives";
import { endWatchesOutOfStanding } from "../watch-standing";

const answer = async (response: Response) => ({
  status: response.status,
  body: await response.json(),
});

const setGroup = async (token: string, body: Record<string, unknown>) =>
  answer(
    await callRoute(operationHandler("POST /api/v1/price-watch-groups"), {
      path: "/price-watch-groups",
      token,
      body,
    }),
  );

const getGroup = async (token: string, id: string) =>
  answer(
    await callRoute(operationHandler("GET /api/v1/price-watch-groups/{price_watch_group_id}"), {
      path: `/price-watch-groups/${id}`,
      token,
      params: { price_watch_group_id: id },
    }),
  );

const listGroups = async (token: string) =>
  answer(
    await callRoute(operationHandler("GET /api/v1/price-watch-groups"), {
      path: "/price-watch-groups",
      token,
    }),
  );

const cancelGroupVia = async (token: string, id: string) =>
  answer(
    await callRoute(operationHandler("DELETE /api/v1/price-watch-groups/{price_watch_group_id}"), {
      method: "DELETE",
      path: `/price-watch-groups/${id}`,
      token,
      params: { price_watch_group_id: id },
    }),
  );

const processAll = () => processPriceChanges(db(), { now: () => new Date() });

const emailsOf = (to: string, template: string) =>
  db().emailMessage.findMany({ where: { to, template } });

const codeOf = (reply: { status: number; body: { error?: { code: string } } }) =>
  `${reply.status} ${reply.body.error?.code}`;

/** A buyer with a group over `count` items of $100: each at $80 or less, $100 in all at most. */
const grouped = async (
  options: BuyerOptions & { count?: number; maxTotal?: number; maxPrice?: number | null } = {},
) => {
  const buyer = await createBuyer(options);
  const items = [];
  for (let index = 0; index < (options.count ?? 2); index++)
    items.push(await watchableItem(10_000));
  const reply = await setGroup(buyer.token, {
    alternatives: items.map((item) => ({
      catalog_item_id: String(item.id),
      ...(options.maxPrice === null ? {} : { max_price: options.maxPrice ?? 80 }),
    })),
    max_total: options.maxTotal ?? 100,
    days: 2,
  });
  expect(reply.status).toBe(201);
  const group = reply.body as {
    price_watch_group_id: string;
    alternatives: { price_watch_id: number }[];
  };
  return {
    ...buyer,
    items,
    groupId: group.price_watch_group_id,
    watchIds: group.alternatives.map((alternative) => alternative.price_watch_id),
  };
};

const watchRows = (ids: number[]) =>
  db().priceWatch.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });

describe("POST /price-watch-groups", () => {
  it("201: the group active with its alternatives (each a PriceWatch with price_watch_group_id), one set email, listed", async () => {
    const buyer = await createBuyer();
    const [a, b, c] = [
      await watchableItem(10_000),
      await watchableItem(12_000),
      await watchableItem(9_000),
    ];
    const { status, body } = await setGroup(buyer.token, {
      alternatives: [
        { catalog_item_id: String(a.id), max_price: 80 },
        { catalog_item_id: String(b.id), size: "M" },
        { catalog_item_id: String(c.id), max_price: "70.00" },
      ],
      max_total: "100.00",
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: "active",
      outcome: null,
      max_total: { amount: "100.00", currency: "CAD" },
      claimed_price_watch_id: null,
      purchase_id: null,
      order_number: null,
    });
    expect(body.price_watch_group_id).toMatch(/^pwg_[0-9a-f]{24}$/);
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(7 * 24 * 3_600_000);
    expect(body.alternatives).toHaveLength(3);
    expect(body.alternatives[0]).toMatchObject({
      status: "active",
      catalog_item_id: String(a.id),
      max_price: { amount: "80.00" },
      max_total: { amount: "100.00" },
      price_watch_group_id: body.price_watch_group_id,
      expires_at: body.expires_at,
    });
    // No price of its own: the price condition is only the total's.
    expect(body.alternatives[1].max_price).toEqual({ amount: "100.00", currency: "CAD" });
    const emails = await emailsOf(buyer.person.email, "price-watch-group-set");
    expect(emails).toHaveLength(1);
    expect(emails[0].props).toMatchObject({ maxTotalCents: 10_000 });
    expect((emails[0].props as { alternatives: unknown[] }).alternatives).toHaveLength(3);
    expect(String((emails[0].props as { cancelUrl: string }).cancelUrl)).toContain(
      `/price-watches/${body.alternatives[0].price_watch_id}/cancel?token=`,
    );
    expect(await emailsOf(buyer.person.email, "price-watch-set")).toHaveLength(0);
    // The alternatives are watches: GET /price-watches lists them, with their group.
    const watches = await listWatches(buyer.token);
    expect(
      watches.body.data.map(
        (watch: { price_watch_group_id: string }) => watch.price_watch_group_id,
      ),
    ).toEqual([body.price_watch_group_id, body.price_watch_group_id, body.price_watch_group_id]);
    const listed = await listGroups(buyer.token);
    expect(
      listed.body.data.map((group: { price_watch_group_id: string }) => group.price_watch_group_id),
    ).toEqual([body.price_watch_group_id]);
    expect((await getGroup(buyer.token, body.price_watch_group_id)).body).toEqual(body);
  });

  it("422 for no item, more than 10, an item twice, a max_price over max_total, days out of range; nothing set", async () => {
    const buyer = await createBuyer();
    const item = await watchableItem(10_000);
    const other = await watchableItem(10_000);
    const one = { catalog_item_id: String(item.id), max_price: 80 };
    const cases: [Record<string, unknown>, string][] = [
      [{ alternatives: [], max_total: 100 }, "alternatives"],
      [
        {
          alternatives: Array.from({ length: 11 }, (_, index) => ({
            catalog_item_id: String(item.id + index),
          })),
          max_total: 100,
        },
        "alternatives",
      ],
      [
        { alternatives: [one, { ...one, max_price: 70 }], max_total: 100 },
        "alternatives[1].catalog_item_id",
      ],
      [
        { alternatives: [{ catalog_item_id: String(other.id), max_price: 120 }], max_total: 100 },
        "alternatives[0].max_price",
      ],
      [{ alternatives: [one], max_total: 100, days: 31 }, "days"],
      [{ alternatives: [{ ...one, size: "XXXL" }], max_total: 100 }, "alternatives[0].size"],
    ];
    for (const [body, field] of cases) {
      const reply = await setGroup(buyer.token, body);
      expect(reply.status, field).toBe(422);
      expect(reply.body.error.code).toBe("invalid_request");
      expect(Object.keys(reply.body.error.fields)).toContain(field);
    }
    expect(await db().priceWatchGroup.count({ where: { personId: buyer.person.id } })).toBe(0);
    expect(await db().priceWatch.count({ where: { personId: buyer.person.id } })).toBe(0);
  });

  it("409 with POST /price-watches' codes, per alternative and for the person; nothing set", async () => {
    const buyer = await createBuyer();
    const item = await watchableItem(10_000);
    const linkOnly = await watchableItem(10_000, { agentCheckout: "link" });
    const cheap = await watchableItem(7_000);
    const refusals: [Record<string, unknown>[], string][] = [
      [
        [{ catalog_item_id: String(item.id) }, { catalog_item_id: String(linkOnly.id) }],
        "409 store_requires_checkout_link",
      ],
      [
        [
          { catalog_item_id: String(item.id), max_price: 80 },
          { catalog_item_id: String(cheap.id), max_price: 80 },
        ],
        "409 already_at_price",
      ],
      // No price of its own: an item already within max_total by its price alone is bought now instead.
      [[{ catalog_item_id: String(cheap.id) }], "409 already_at_price"],
    ];
    for (const [alternatives, code] of refusals)
      expect(codeOf(await setGroup(buyer.token, { alternatives, max_total: 100 }))).toBe(code);
    expect(
      codeOf(
        await setGroup(buyer.token, {
          alternatives: [{ catalog_item_id: String(item.id), max_price: 80 }],
          max_total: 2_000,
        }),
      ),
    ).toBe("409 over_spending_limit");
    const paused = await createBuyer({ paused: true });
    expect(
      codeOf(
        await setGroup(paused.token, {
          alternatives: [{ catalog_item_id: String(item.id), max_price: 80 }],
          max_total: 100,
        }),
      ),
    ).toBe("409 purchases_paused");
    // An item the person already watches (alone or in another group) is already_watching.
    expect(
      (
        await setWatch(buyer.token, {
          catalog_item_id: String(item.id),
          max_price: 80,
          max_total: 100,
        })
      ).status,
    ).toBe(201);
    const second = await watchableItem(10_000);
    const refused = await setGroup(buyer.token, {
      alternatives: [{ catalog_item_id: String(second.id) }, { catalog_item_id: String(item.id) }],
      max_total: 90,
    });
    expect(codeOf(refused)).toBe("409 already_watching");
    expect(await db().priceWatchGroup.count({ where: { personId: buyer.person.id } })).toBe(0);
  });

  it("the 25-watch limit counts a group as one: 24 watches and a group of 10 are accepted, then a watch and a group are refused", async () => {
    const buyer = await createBuyer();
    const first = await watchableItem(10_000);
    const set = await setWatch(buyer.token, {
      catalog_item_id: String(first.id),
      max_price: 80,
      max_total: 100,
    });
    expect(set.status).toBe(201);
    const model = await db().priceWatch.findUniqueOrThrow({
      where: { id: set.body.price_watch_id },
    });
    // 23 more live watches, written as POST /price-watches writes them.
    const filler = await watchableItem(10_000);
    const { id: _id, createdAt: _created, updatedAt: _updated, ...row } = model;
    await db().priceWatch.createMany({
      data: Array.from({ length: maxLiveWatches - 2 }, () => ({ ...row, itemId: filler.id })),
    });
    const items = [];
    for (let index = 0; index < 10; index++) items.push(await watchableItem(10_000));
    const group = await setGroup(buyer.token, {
      alternatives: items.map((item) => ({ catalog_item_id: String(item.id) })),
      max_total: 90,
    });
    expect(group.status).toBe(201);
    expect(group.body.alternatives).toHaveLength(10);
    const more = await watchableItem(10_000);
    const refused = await setWatch(buyer.token, {
      catalog_item_id: String(more.id),
      max_price: 80,
      max_total: 100,
    });
    expect(codeOf(refused)).toBe("409 too_many_watches");
    expect(
      codeOf(
        await setGroup(buyer.token, {
          alternatives: [{ catalog_item_id: String(more.id) }],
          max_total: 90,
        }),
      ),
    ).toBe("409 too_many_watches");
    // Cancelling the group frees its one place.
    expect((await cancelGroupVia(buyer.token, group.body.price_watch_group_id)).status).toBe(200);
    expect(
      (
        await setWatch(buyer.token, {
          catalog_item_id: String(more.id),
          max_price: 80,
          max_total: 100,
        })
      ).status,
    ).toBe(201);
  });

  it("another person's group is 404 (read and cancel)", async () => {
    const owner = await grouped();
    const stranger = await createBuyer();
    expect(codeOf(await getGroup(stranger.token, owner.groupId))).toBe("404 not_found");
    expect(codeOf(await cancelGroupVia(stranger.token, owner.groupId))).toBe("404 not_found");
    expect(codeOf(await getGroup(owner.token, "pwg_000000000000000000000000"))).toBe(
      "404 not_found",
    );
    expect((await getGroup(owner.token, owner.groupId)).body.status).toBe("active");
  });
});

describe("evaluation", () => {
  it("two alternatives dropping in ONE sale transaction, TWO processors at once: exactly one purchase; the other ends fulfilled_by_alternative", async () => {
    const { token, person, items, groupId, watchIds } = await grouped({ count: 3 });
    await setItemPrices(
      db(),
      [
        { itemId: items[0].id, priceCents: 7_500 },
        { itemId: items[1].id, priceCents: 7_500 },
      ],
      { now: new Date() },
    );
    await Promise.all([
      processPriceChanges(db(), { now: () => new Date(), batch: 1 }),
      processPriceChanges(db(), { now: () => new Date(), batch: 1 }),
    ]);
    const purchases = await db().purchase.findMany({ where: { personId: person.id } });
    expect(purchases).toHaveLength(1);
    expect(await sandboxLedger(purchases[0].id)).toMatchObject({ holds: 1, releases: 0 });
    const { body } = await getGroup(token, groupId);
    expect(body).toMatchObject({
      status: "fulfilled",
      outcome: "bought",
      purchase_id: purchases[0].id,
    });
    expect(body.order_number).toMatch(/^SO-/);
    const bought = body.alternatives.find(
      (watch: { status: string }) => watch.status === "fulfilled",
    );
    expect(bought).toMatchObject({ outcome: "bought", purchase_id: purchases[0].id });
    expect(body.claimed_price_watch_id).toBe(bought.price_watch_id);
    const others = body.alternatives.filter(
      (watch: { price_watch_id: number }) => watch.price_watch_id !== bought.price_watch_id,
    );
    expect(
      others.map((watch: { status: string; outcome: string }) => [watch.status, watch.outcome]),
    ).toEqual([
      ["cancelled", "fulfilled_by_alternative"],
      ["cancelled", "fulfilled_by_alternative"],
    ]);
    expect(purchases[0].grandTotalCents).toBeLessThanOrEqual(10_000);
    // The person hears once that it bought, and not that the others ended.
    expect(await emailsOf(person.email, "price-watch-bought")).toHaveLength(1);
    expect(await emailsOf(person.email, "price-watch-ended")).toHaveLength(0);
    expect(await emailsOf(person.email, "price-watch-group-ended")).toHaveLength(0);
    // A later drop of another alternative buys nothing more.
    await setItemPrices(db(), [{ itemId: items[2].id, priceCents: 7_000 }], { now: new Date() });
    await processAll();
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
    expect(
      (await watchRows(watchIds)).filter((watch) => watch.status === "fulfilled"),
    ).toHaveLength(1);
  });

  it("four alternatives dropping at once under three processors, three times over: always exactly one purchase", async () => {
    for (let round = 0; round < 3; round++) {
      const { person, items, groupId, watchIds } = await grouped({ count: 4 });
      await setItemPrices(
        db(),
        items.map((item) => ({ itemId: item.id, priceCents: 7_000 })),
        { now: new Date() },
      );
      await Promise.all(
        [1, 2, 3].map(() => processPriceChanges(db(), { now: () => new Date(), batch: 1 })),
      );
      expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
      const group = await db().priceWatchGroup.findUniqueOrThrow({ where: { id: groupId } });
      expect(group.status).toBe("fulfilled");
      const statuses = (await watchRows(watchIds)).map((watch) => watch.outcome);
      expect(statuses.filter((outcome) => outcome === "bought")).toHaveLength(1);
      expect(statuses.filter((outcome) => outcome === "fulfilled_by_alternative")).toHaveLength(3);
      expect(
        await db().priceChangeEvent.count({
          where: { itemId: { in: items.map((item) => item.id) }, processedAt: null },
        }),
      ).toBe(0);
    }
  });

  it("an alternative over the total does not buy and leaves the group active; a later alternative buys within it", async () => {
    const { token, person, items, groupId, watchIds } = await grouped({
      maxTotal: 80,
      maxPrice: null,
    });
    await setItemPrices(db(), [{ itemId: items[0].id, priceCents: 7_900 }], { now: new Date() });
    await processAll();
    const waiting = await getGroup(token, groupId);
    expect(waiting.body.status).toBe("active");
    expect(waiting.body.alternatives.map((watch: { status: string }) => watch.status)).toEqual([
      "active",
      "active",
    ]);
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(0);
    await setItemPrices(db(), [{ itemId: items[1].id, priceCents: 5_000 }], { now: new Date() });
    await processAll();
    const { body } = await getGroup(token, groupId);
    expect(body).toMatchObject({ status: "fulfilled", claimed_price_watch_id: watchIds[1] });
    expect(
      body.alternatives.map((watch: { status: string; outcome: string }) => watch.outcome),
    ).toEqual(["fulfilled_by_alternative", "bought"]);
  });

  it("an alternative whose item sold elsewhere ends alone; the group goes on, and ends item_sold when none is left", async () => {
    const { token, person, items, groupId, watchIds } = await grouped();
    // Each price drops, then its item sells before the change is processed (a sold item's price cannot change).
    const dropThenSell = async (itemId: number) => {
      await setItemPrices(db(), [{ itemId, priceCents: 7_500 }], { now: new Date() });
      await db().item.update({ where: { id: itemId }, data: { status: "sold" } });
    };
    await dropThenSell(items[0].id);
    await processAll();
    expect((await getGroup(token, groupId)).body.status).toBe("active");
    expect((await watchRows(watchIds)).map((watch) => watch.status)).toEqual([
      "item_sold",
      "active",
    ]);
    await dropThenSell(items[1].id);
    await processAll();
    expect((await getGroup(token, groupId)).body).toMatchObject({
      status: "cancelled",
      outcome: "item_sold",
    });
    const ended = await emailsOf(person.email, "price-watch-group-ended");
    expect(ended).toHaveLength(1);
    expect(ended[0].props).toMatchObject({ outcome: "item_sold" });
    // One email for the group, none for each alternative that ended alone.
    expect(await emailsOf(person.email, "price-watch-ended")).toHaveLength(0);
  });

  it("a declined card: the alternative and the group need the person, the others end alternative_needs_you", async () => {
    const { token, person, items, groupId } = await grouped({ card: testCards.declined });
    await setItemPrices(db(), [{ itemId: items[0].id, priceCents: 7_500 }], { now: new Date() });
    await processAll();
    const { body } = await getGroup(token, groupId);
    expect(body).toMatchObject({ status: "needs_you", outcome: "card_declined" });
    expect(
      body.alternatives.map((watch: { status: string; outcome: string }) => [
        watch.status,
        watch.outcome,
      ]),
    ).toEqual([
      ["needs_you", "card_declined"],
      ["cancelled", "alternative_needs_you"],
    ]);
    expect(await emailsOf(person.email, "price-watch-needs-you")).toHaveLength(1);
    // Nothing else buys: the second alternative's drop does nothing.
    await setItemPrices(db(), [{ itemId: items[1].id, priceCents: 7_500 }], { now: new Date() });
    await processAll();
    expect(await db().purchase.count({ where: { personId: person.id, status: "held" } })).toBe(0);
  });

  it("the person's standing: paused purchases end the whole group at once (one email), at the change or at the next drop", async () => {
    const atChange = await grouped();
    await db().person.update({
      where: { id: atChange.person.id },
      data: { purchasesPaused: true },
    });
    const ended = await inTransaction(db(), (tx) =>
      endWatchesOutOfStanding(tx, { personId: atChange.person.id }, new Date()),
    );
    expect(ended.sort()).toEqual([...atChange.watchIds].sort());
    expect((await getGroup(atChange.token, atChange.groupId)).body).toMatchObject({
      status: "cancelled",
      outcome: "purchases_paused",
    });
    expect((await watchRows(atChange.watchIds)).map((watch) => watch.outcome)).toEqual([
      "purchases_paused",
      "purchases_paused",
    ]);
    expect(await emailsOf(atChange.person.email, "price-watch-group-ended")).toHaveLength(1);

    const atDrop = await grouped();
    await db().person.update({
      where: { id: atDrop.person.id },
      data: { spendingLimitPerOrderCents: 5_000 },
    });
    await setItemPrices(db(), [{ itemId: atDrop.items[0].id, priceCents: 7_500 }], {
      now: new Date(),
    });
    await processAll();
    expect((await getGroup(atDrop.token, atDrop.groupId)).body).toMatchObject({
      status: "cancelled",
      outcome: "limits_lowered",
    });
    expect((await watchRows(atDrop.watchIds)).map((watch) => watch.status)).toEqual([
      "cancelled",
      "cancelled",
    ]);
    expect(await db().purchase.count({ where: { personId: atDrop.person.id } })).toBe(0);
  });
});

describe("ending", () => {
  it("DELETE cancels the group and every alternative, one email; again answers it as it is; an alternative's own DELETE cancels its group", async () => {
    const { token, person, groupId, watchIds } = await grouped({ count: 3 });
    const reply = await cancelGroupVia(token, groupId);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: "cancelled", outcome: "cancelled" });
    expect(reply.body.alternatives.map((watch: { status: string }) => watch.status)).toEqual([
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
    expect((await cancelGroupVia(token, groupId)).body.status).toBe("cancelled");
    expect(await emailsOf(person.email, "price-watch-group-ended")).toHaveLength(1);
    expect(await emailsOf(person.email, "price-watch-ended")).toHaveLength(0);
    expect(watchIds).toHaveLength(3);

    const other = await grouped();
    expect((await cancelWatchVia(other.token, other.watchIds[1])).status).toBe(200);
    expect((await getGroup(other.token, other.groupId)).body.status).toBe("cancelled");
    expect((await watchRows(other.watchIds)).map((watch) => watch.status)).toEqual([
      "cancelled",
      "cancelled",
    ]);
  });

  it("a group buying now cannot be cancelled (watch_closed)", async () => {
    const { token, groupId, watchIds } = await grouped({ card: testCards.answersLate });
    const [a] = await db().item.findMany({
      where: { priceWatches: { some: { id: watchIds[0] } } },
    });
    await setItemPrices(db(), [{ itemId: a.id, priceCents: 7_500 }], { now: new Date() });
    await processAll();
    expect((await getGroup(token, groupId)).body.status).toBe("executing");
    const refused = await cancelGroupVia(token, groupId);
    expect(codeOf(refused)).toBe("409 watch_closed");
    expect(refused.body.error.status).toBe("executing");
  });

  it("expiry ends the group and its alternatives (the sweep), one ended email", async () => {
    const { token, person, groupId, watchIds } = await grouped();
    expect(await expireDueWatches(db(), { now: new Date() })).toBe(0);
    await expireDueWatches(db(), { now: new Date(Date.now() + 2 * 24 * 3_600_000 + 1000) });
    expect((await getGroup(token, groupId)).body).toMatchObject({
      status: "expired",
      outcome: "expired",
    });
    expect((await watchRows(watchIds)).map((watch) => [watch.status, watch.outcome])).toEqual([
      ["expired", "expired"],
      ["expired", "expired"],
    ]);
    expect(await emailsOf(person.email, "price-watch-group-ended")).toHaveLength(1);
    expect(await emailsOf(person.email, "price-watch-ended")).toHaveLength(0);
  });

  it("a refusal that keeps the claimed alternative live returns the group to active; the other alternative cannot claim meanwhile, then can", async () => {
    const { token, person, items, groupId, watchIds } = await grouped();
    const now = new Date();
    expect(await claimAlternative({ id: watchIds[0], groupId }, "quo_unused", now)).toMatchObject({
      status: "executing",
    });
    // The other alternative cannot claim while the group is executing.
    expect(await claimAlternative({ id: watchIds[1], groupId }, "quo_unused", now)).toBeNull();
    expect((await watchRows(watchIds)).map((watch) => watch.status)).toEqual([
      "executing",
      "active",
    ]);
    // The purchase path refused for now (the price moved): the alternative and its group are active again.
    await afterRefusal(watchIds[0], "price_changed", new Date());
    expect((await getGroup(token, groupId)).body).toMatchObject({
      status: "active",
      claimed_price_watch_id: null,
    });
    await setItemPrices(db(), [{ itemId: items[1].id, priceCents: 7_500 }], { now: new Date() });
    await processAll();
    expect((await getGroup(token, groupId)).body).toMatchObject({
      status: "fulfilled",
      claimed_price_watch_id: watchIds[1],
    });
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
  });

  it("an end another alternative asks for while one is buying waits for that purchase's answer", async () => {
    const { token, person, items, groupId, watchIds } = await grouped();
    await claimAlternative({ id: watchIds[0], groupId }, "quo_unused", new Date());
    await db().person.update({
      where: { id: person.id },
      data: { spendingLimitPerOrderCents: 5_000 },
    });
    await setItemPrices(db(), [{ itemId: items[1].id, priceCents: 7_500 }], { now: new Date() });
    await processAll();
    // The second alternative lost its standing, but the first is buying: nothing ends under it.
    expect((await getGroup(token, groupId)).body.status).toBe("executing");
    expect((await watchRows(watchIds)).map((watch) => watch.status)).toEqual([
      "executing",
      "active",
    ]);
    // The first's purchase is refused for the same reason: the whole group ends with it.
    await afterRefusal(watchIds[0], "over_spending_limit", new Date());
    expect((await getGroup(token, groupId)).body).toMatchObject({
      status: "cancelled",
      outcome: "limits_lowered",
    });
    expect((await watchRows(watchIds)).map((watch) => watch.outcome)).toEqual([
      "limits_lowered",
      "limits_lowered",
    ]);
  });

  it("the bank answers late: the group stays executing with its alternative until the recovery sweep records the hold", async () => {
    const { token, person, items, groupId, watchIds } = await grouped({
      card: testCards.answersLate,
    });
    await setItemPrices(db(), [{ itemId: items[0].id, priceCents: 7_500 }], { now: new Date() });
    await processAll();
    expect((await getGroup(token, groupId)).body.status).toBe("executing");
    const executing = await db().priceWatch.findUniqueOrThrow({ where: { id: watchIds[0] } });
    expect(executing.purchaseId).toMatch(/^pur_/);
    await completeLateAuthorize(db(), paymentProvider(), {
      id: executing.purchaseId!,
      now: new Date(),
    });
    await resumeExecutingWatches(db(), { now: new Date(Date.now() + executingRetryMs + 1000) });
    const { body } = await getGroup(token, groupId);
    expect(body).toMatchObject({ status: "fulfilled", purchase_id: executing.purchaseId });
    expect(body.alternatives.map((watch: { outcome: string }) => watch.outcome)).toEqual([
      "bought",
      "fulfilled_by_alternative",
    ]);
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
  });

  it("recovery: a group left executing after its alternative moved on goes back to active", async () => {
    const { token, groupId, watchIds } = await grouped();
    const longAgo = new Date(Date.now() - 10 * 60_000);
    // As a crash between the alternative's release and its group's would leave it.
    await db().priceWatchGroup.update({
      where: { id: groupId },
      data: { status: "executing", claimedWatchId: watchIds[0], claimedAt: longAgo },
    });
    await resumeExecutingWatches(db(), { now: new Date() });
    expect((await getGroup(token, groupId)).body).toMatchObject({
      status: "active",
      claimed_price_watch_id: null,
    });
  });
});
