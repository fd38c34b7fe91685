/**
 * The dashboard's any-of price watch groups (/account/watch-groups, through /api/trpc): the
 * signed-in person's groups, newest first, each with its assistant and its alternatives (item,
 * status, outcome, chart); one that bought shows its order and its other alternatives ended
 * fulfilled_by_alternative; Cancel ends an active group, and a bought one is refused. Another
 * person's group is not_found and stays active; a visitor and an app's token are refused.
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { setItemPrice } from "../catalogue";
import { operationHandler } from "../edges/rest/rest-router";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { callRoute } from "../testing/rest";
import { partnerCaller, shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";
import { createBuyer, watchableItem } from "../testing/watch-fixtures";

/** POST /price-watch-groups with the assistant's token: the group's id. */
const setGroup = async (token: string, body: Record<string, unknown>) => {
  const response = await callRoute(operationHandler("POST /api/v1/price-watch-groups"), {
    path: "/price-watch-groups",
    token,
    body,
  });
  const created = await response.json();
  expect(response.status, JSON.stringify(created)).toBe(201);
  return created.price_watch_group_id as string;
};

const groupStatus = async (id: string) =>
  (await db().priceWatchGroup.findUniqueOrThrow({ where: { id } })).status;

describe("dashboard price watch groups", () => {
  it("lists the groups newest first with their alternatives; a bought one shows its order; cancels an active one", async () => {
    const buyer = await createBuyer();
    const [first, second, third] = [
      await watchableItem(10_000),
      await watchableItem(12_000),
      await watchableItem(9_000),
    ];
    const older = await setGroup(buyer.token, {
      alternatives: [
        { catalog_item_id: String(first.id), max_price: 80 },
        { catalog_item_id: String(second.id) },
      ],
      max_total: 100,
      days: 3,
    });
    const newer = await setGroup(buyer.token, {
      alternatives: [{ catalog_item_id: String(third.id), max_price: 70 }],
      max_total: 100,
    });

    const list = await shopper(buyer.person.id).account.listMyWatchGroups();
    expect(list.groups.map((group) => group.price_watch_group_id)).toEqual([newer, older]);
    expect(list).toMatchObject({ page: 1, has_more: false, time_zone: "America/Toronto" });
    const shown = list.groups[1];
    expect(shown).toMatchObject({
      status: "active",
      outcome: null,
      max_total: { amount: "100.00", currency: "CAD" },
      assistant: buyer.agent.name,
      can_cancel: true,
      order_number: null,
    });
    expect(shown.alternatives.map((alternative) => alternative.catalog_item_id)).toEqual([
      String(first.id),
      String(second.id),
    ]);
    expect(shown.alternatives[0]).toMatchObject({
      status: "active",
      max_price: { amount: "80.00" },
      any_price_within_total: false,
      item: { title: first.title, priceCents: 10_000 },
      price_watch_group_id: older,
    });
    expect(shown.alternatives[1]).toMatchObject({ any_price_within_total: true });
    for (const alternative of shown.alternatives)
      expect(alternative.price_chart?.svg).toContain("<svg");

    // The first alternative's price falls within its price and the total: the group buys it.
    await setItemPrice(db(), { itemId: first.id, priceCents: 7_500 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    const bought = (await shopper(buyer.person.id).account.listMyWatchGroups()).groups[1];
    expect(bought).toMatchObject({ status: "fulfilled", outcome: "bought", can_cancel: false });
    expect(bought.order_number).toMatch(/^SO-/);
    expect(bought.claimed_price_watch_id).toBe(bought.alternatives[0].price_watch_id);
    expect(bought.alternatives.map(({ status, outcome }) => [status, outcome])).toEqual([
      ["fulfilled", "bought"],
      ["cancelled", "fulfilled_by_alternative"],
    ]);
    expect(
      (
        await failure(
          shopper(buyer.person.id).account.cancelMyWatchGroup({ price_watch_group_id: older }),
        )
      ).code,
    ).toBe("watch_closed");

    // Cancel ends the active group and its alternative; again, it is already cancelled.
    expect(
      await shopper(buyer.person.id).account.cancelMyWatchGroup({ price_watch_group_id: newer }),
    ).toEqual({ price_watch_group_id: newer, already_cancelled: false });
    expect(
      await shopper(buyer.person.id).account.cancelMyWatchGroup({ price_watch_group_id: newer }),
    ).toEqual({ price_watch_group_id: newer, already_cancelled: true });
    const cancelled = (await shopper(buyer.person.id).account.listMyWatchGroups()).groups[0];
    expect(cancelled).toMatchObject({
      status: "cancelled",
      outcome: "cancelled",
      can_cancel: false,
    });
    expect(cancelled.alternatives[0]).toMatchObject({ status: "cancelled", outcome: "cancelled" });
  });

  it("another person's group is not_found and stays active; visitors and tokens are refused", async () => {
    const buyer = await createBuyer();
    const { person: other } = await createBuyer();
    const item = await watchableItem(10_000);
    const id = await setGroup(buyer.token, {
      alternatives: [{ catalog_item_id: String(item.id), max_price: 80 }],
      max_total: 100,
    });
    expect(
      (await failure(shopper(other.id).account.cancelMyWatchGroup({ price_watch_group_id: id })))
        .code,
    ).toBe("not_found");
    expect((await shopper(other.id).account.listMyWatchGroups()).groups).toEqual([]);
    expect(await groupStatus(id)).toBe("active");
    expect((await failure(visitorCaller().account.listMyWatchGroups())).code).toBe("unauthorized");
    expect(
      (
        await failure(
          partnerCaller(
            ["purchase:write"],
            buyer.agent.id,
            buyer.person.id,
          ).account.cancelMyWatchGroup({ price_watch_group_id: id }),
        )
      ).code,
    ).toBe("unauthorized");
    expect(await groupStatus(id)).toBe("active");
  });

  it("a malformed request is invalid_request naming the field, and changes nothing", async () => {
    const buyer = await createBuyer();
    const item = await watchableItem(10_000);
    const id = await setGroup(buyer.token, {
      alternatives: [{ catalog_item_id: String(item.id), max_price: 80 }],
      max_total: 100,
    });
    const me = shopper(buyer.person.id).account;
    const notAnId = await failure(me.cancelMyWatchGroup({ price_watch_group_id: "pwg_../x" }));
    expect(notAnId.code).toBe("invalid_request");
    expect(notAnId.options.fields?.price_watch_group_id).toContain("price watch group id");
    expect(
      (await failure(me.listMyWatchGroups({ page: 1001 }))).options.fields?.page,
    ).toBeDefined();
    expect(await groupStatus(id)).toBe("active");
  });
});
