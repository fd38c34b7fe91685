/**
 * The dashboard's search watches (/account/search-watches, through /api/trpc): the signed-in
 * person's watches, newest first, with their filters, mode, max_total, the app that set them, how
 * many items matched and how many were emailed (notify), and the item and order a buying watch
 * bought; Cancel ends an active one, and answers a bought one as it is. Another person's watch is
 * not_found and stays active; a visitor and an app's token are refused.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createCategory, createStore } from "../../prisma/factories";
import { listItems, type NewListing } from "../catalogue";
import { operationHandler } from "../edges/rest/rest-router";
import { db } from "../platform/db";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { partnerCaller, shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";
import { callRoute } from "../testing/rest";
import { createBuyer } from "../testing/watch-fixtures";

const category = "Women > Outerwear > Coats";
beforeAll(async () => {
  await createCategory(category);
});

/** A word no other item has (letters only, so it is one lexeme). */
const word = () =>
  `q${randomBytes(6)
    .toString("hex")
    .replace(/[0-9]/g, (digit) => "ghijklmnop"[Number(digit)])}`;

/** A person linked to an assistant that may buy and notify for them. */
const watcher = () =>
  createBuyer({
    scope: "catalog:read checkout:write address:read purchase:write alerts:write",
    tick: ["purchase:write", "alerts:write"],
  });

/** POST /search-watches with the app's token: the watch's id. */
const setSearchWatch = async (token: string, body: Record<string, unknown>) => {
  const response = await callRoute(operationHandler("POST /api/v1/search-watches"), {
    path: "/search-watches",
    token,
    body,
  });
  const created = await response.json();
  expect(response.status, JSON.stringify(created)).toBe(201);
  return created.search_watch_id as string;
};

const listing = (title: string): NewListing => ({
  title,
  brand: "Atelier Nord",
  description: "",
  categoryPath: category,
  priceCents: 8_000,
  condition: "good",
  sizes: ["M"],
  color: "Charcoal",
  quantity: 1,
});

const statusOf = async (id: string) =>
  (await db().searchWatch.findUniqueOrThrow({ where: { id } })).status;

describe("dashboard search watches", () => {
  it("lists the watches newest first with filters and counts; a bought one shows its item and order; cancels an active one", async () => {
    const buyer = await watcher();
    const store = await createStore({ agentCheckout: "direct" });
    const [notifyWord, buyWord] = [word(), word()];
    const notify = await setSearchWatch(buyer.token, {
      mode: "notify",
      q: notifyWord,
      size: ["M"],
      max_price: "100",
    });
    const buy = await setSearchWatch(buyer.token, { mode: "buy", q: buyWord, max_total: 200 });

    const before = await shopper(buyer.person.id).account.listMySearchWatches();
    expect(before.search_watches.map((watch) => watch.search_watch_id)).toEqual([buy, notify]);
    expect(before).toMatchObject({ page: 1, has_more: false, time_zone: "America/Toronto" });
    expect(before.search_watches[1]).toMatchObject({
      mode: "notify",
      status: "active",
      filters: {
        q: notifyWord,
        size: ["M"],
        category: null,
        max_price: { amount: "100.00", currency: "CAD" },
      },
      max_total: null,
      matches_count: 0,
      notified_count: 0,
      assistant: buyer.agent.name,
      can_cancel: true,
      item: null,
    });
    expect(before.search_watches[1]).not.toHaveProperty("recent_matches");

    // A new listing for each: the notify watch emails it at once, the buying one buys it.
    await listItems(store.slug, [listing(`Long ${notifyWord} coat`)], { now: new Date() });
    await listItems(store.slug, [listing(`Short ${buyWord} coat`)], { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    const [bought, notified] = (await shopper(buyer.person.id).account.listMySearchWatches())
      .search_watches;
    expect(notified).toMatchObject({ matches_count: 1, notified_count: 1, item: null });
    expect(bought).toMatchObject({
      mode: "buy",
      status: "fulfilled",
      outcome: "bought",
      max_total: { amount: "200.00" },
      matches_count: 1,
      can_cancel: false,
      item: { title: `Short ${buyWord} coat`, priceCents: 8_000 },
    });
    expect(bought.order_number).toMatch(/^SO-/);
    expect(bought.purchase_id).toMatch(/^pur_/);

    // Cancel ends the active watch; again, it is already cancelled; a bought one stays bought.
    const cancel = (id: string) =>
      shopper(buyer.person.id).account.cancelMySearchWatch({ search_watch_id: id });
    expect(await cancel(notify)).toEqual({
      search_watch_id: notify,
      status: "cancelled",
      already_cancelled: false,
    });
    expect(await cancel(notify)).toMatchObject({ status: "cancelled", already_cancelled: true });
    expect(await cancel(buy)).toMatchObject({ status: "fulfilled", already_cancelled: false });
    const after = (await shopper(buyer.person.id).account.listMySearchWatches()).search_watches;
    expect(after.map(({ status, outcome }) => [status, outcome])).toEqual([
      ["fulfilled", "bought"],
      ["cancelled", "cancelled"],
    ]);
  });

  it("another person's watch is not_found and stays active; visitors and tokens are refused", async () => {
    const buyer = await watcher();
    const { person: other } = await watcher();
    const id = await setSearchWatch(buyer.token, { mode: "notify", q: word() });
    expect(
      (await failure(shopper(other.id).account.cancelMySearchWatch({ search_watch_id: id }))).code,
    ).toBe("not_found");
    expect((await shopper(other.id).account.listMySearchWatches()).search_watches).toEqual([]);
    expect(await statusOf(id)).toBe("active");
    expect((await failure(visitorCaller().account.listMySearchWatches())).code).toBe(
      "unauthorized",
    );
    expect(
      (
        await failure(
          partnerCaller(
            ["alerts:write"],
            buyer.agent.id,
            buyer.person.id,
          ).account.cancelMySearchWatch({ search_watch_id: id }),
        )
      ).code,
    ).toBe("unauthorized");
    expect(await statusOf(id)).toBe("active");
  });

  it("a malformed request is invalid_request naming the field, and changes nothing", async () => {
    const buyer = await watcher();
    const id = await setSearchWatch(buyer.token, { mode: "notify", q: word() });
    const me = shopper(buyer.person.id).account;
    const tooLong = await failure(me.cancelMySearchWatch({ search_watch_id: "x".repeat(65) }));
    expect(tooLong.code).toBe("invalid_request");
    expect(tooLong.options.fields?.search_watch_id).toContain("at most 64");
    const extra = { search_watch_id: id, status: "cancelled" } as { search_watch_id: string };
    expect((await failure(me.cancelMySearchWatch(extra))).code).toBe("invalid_request");
    expect((await failure(me.listMySearchWatches({ page: 0 }))).options.fields?.page).toBeDefined();
    expect(await statusOf(id)).toBe("active");
  });
});
