/**
 * Property (issue 24 §2): whatever happens to price watches, price alerts and items, and in
 * whatever order, once the index has heard every committed change it agrees with PostgreSQL:
 * `price_watchers` of every item for every viewer (and for nobody) equals the count in SQL, and so
 * does what it holds of each item (price, sold or not, its store selling or not).
 *
 * Random steps of writes run side by side (create, cancel, fulfil, expire, claim and delete
 * watches; create, notify, stop and delete alerts; an item sold with its watches ended in one
 * transaction, as a purchase does; a price change; an item back on sale; a store that stops or
 * resumes selling), plus a lost LISTEN connection (its backend terminated: the changes made until
 * it is back are heard by nobody), a rebuild, and a write no notification announces with an
 * updated_at from long ago (the catch-up must find it). After each step the test waits until the
 * index has heard everything committed (a ping through the channel) and compares.
 *
 * The periodic catch-up is off (10 minutes), so nothing but the mechanism under test heals.
 */
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "../../../core/errors";
import { createItem, createPartner, createPerson, createStore } from "../../../../prisma/factories";
import { randomId } from "../../../core/ids";
import { db } from "../../../platform/db";
import { storeCanSellSql } from "../../../core/store-can-sell";
import { countWatchersInSql } from "../watchers";
import { CatalogSync } from "./catalog-sync";
import { setItemPrice } from "../../set-item-price";
import { dropWindowMs } from "../types";
import { writeSilently } from "../../../testing/silent-writes";

const databaseUrl = process.env.DATABASE_URL!;
let sync: CatalogSync;
let storeIds: number[] = [];
let itemIds: number[] = [];
let personIds: string[] = [];
let clientId = "";

const longAgo = () => new Date(Date.now() - 3_600_000);

type Action =
  | { kind: "watch"; person: number; item: number; executing: boolean }
  | { kind: "alert"; person: number; item: number }
  | {
      kind: "moveWatch";
      pick: number;
      to: "cancelled" | "fulfilled" | "expired" | "executing" | "active";
    }
  | { kind: "moveAlert"; pick: number; to: "notified" | "stopped" }
  | { kind: "deleteWatch"; pick: number }
  | { kind: "deleteAlert"; pick: number }
  | { kind: "sell"; item: number }
  | { kind: "reprice"; item: number; priceCents: number }
  | { kind: "relist"; item: number }
  | { kind: "storeSelling"; store: number; canShip: boolean }
  | { kind: "silentWatcher"; pick: number; person: number; item: number }
  | { kind: "loseListen" }
  | { kind: "rebuild" };

const index = fc.nat({ max: 5 });
const person = fc.nat({ max: 2 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("watch" as const),
      person,
      item: index,
      executing: fc.boolean(),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant("alert" as const), person, item: index }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant("moveWatch" as const),
      pick: fc.nat(),
      to: fc.constantFrom(
        "cancelled" as const,
        "fulfilled" as const,
        "expired" as const,
        "executing" as const,
        "active" as const,
      ),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("moveAlert" as const),
      pick: fc.nat(),
      to: fc.constantFrom("notified" as const, "stopped" as const),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("deleteWatch" as const), pick: fc.nat() }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("deleteAlert" as const), pick: fc.nat() }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("sell" as const), item: index }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant("reprice" as const),
      item: index,
      priceCents: fc.integer({ min: 100, max: 90_000 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("relist" as const), item: index }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("storeSelling" as const),
      store: fc.nat({ max: 1 }),
      canShip: fc.boolean(),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("silentWatcher" as const),
      pick: fc.nat(),
      person,
      item: index,
    }),
    weight: 1,
  },
  { arbitrary: fc.constant({ kind: "loseListen" as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: "rebuild" as const }), weight: 1 },
);

/** The id of the `pick`-th row (mod their number) of the scene's watches or alerts, if any. */
const pickRow = async (table: "price_watches" | "price_alerts", pick: number, onlyLive = false) => {
  const live =
    table === "price_watches" ? "status IN ('active', 'executing')" : "status = 'active'";
  const rows = await db().$queryRawUnsafe<{ id: string | number }[]>(
    `SELECT id FROM ${table} WHERE item_id = ANY($1::int[]) ${onlyLive ? `AND ${live}` : ""} ORDER BY id`,
    itemIds,
  );
  return rows.length ? rows[pick % rows.length].id : undefined;
};

/** A write with every trigger off: no notification, and updated_at as written (long ago). */
const silently = (sql: string, values: unknown[]) => writeSilently([[sql, values]]);

const perform = async (step: Action): Promise<void> => {
  const expiresAt = new Date(Date.now() + 86_400_000);
  switch (step.kind) {
    case "watch":
      await db().priceWatch.create({
        data: {
          personId: personIds[step.person],
          clientId,
          itemId: itemIds[step.item],
          maxPriceCents: 1000,
          maxTotalCents: 2000,
          status: step.executing ? "executing" : "active",
          expiresAt,
        },
      });
      return;
    case "alert":
      await db().priceAlert.create({
        data: {
          id: randomId("alr_"),
          personId: personIds[step.person],
          clientId,
          itemId: itemIds[step.item],
          targetPriceCents: 1000,
        },
      });
      return;
    case "moveWatch": {
      const id = await pickRow("price_watches", step.pick, step.to !== "active");
      if (id !== undefined)
        await db().priceWatch.updateMany({
          where: { id: Number(id) },
          data: {
            status: step.to,
            endedAt: ["active", "executing"].includes(step.to) ? null : new Date(),
          },
        });
      return;
    }
    case "moveAlert": {
      const id = await pickRow("price_alerts", step.pick, true);
      if (id !== undefined)
        await db().priceAlert.updateMany({
          where: { id: String(id), status: "active" },
          data: { status: step.to },
        });
      return;
    }
    case "deleteWatch": {
      const id = await pickRow("price_watches", step.pick);
      if (id !== undefined) await db().priceWatch.deleteMany({ where: { id: Number(id) } });
      return;
    }
    case "deleteAlert": {
      const id = await pickRow("price_alerts", step.pick);
      if (id !== undefined) await db().priceAlert.deleteMany({ where: { id: String(id) } });
      return;
    }
    case "sell": {
      // As a purchase by a watch: the item sold, its one claimed watch fulfilled and the others ended, in one transaction.
      const itemId = itemIds[step.item];
      await db().$transaction(async (tx) => {
        await tx.item.update({ where: { id: itemId }, data: { status: "sold" } });
        const live = await tx.priceWatch.findMany({
          where: { itemId, status: { in: ["active", "executing"] } },
          orderBy: { id: "asc" },
        });
        if (live.length)
          await tx.priceWatch.updateMany({
            where: { id: live[0].id },
            data: { status: "fulfilled", outcome: "bought", endedAt: new Date() },
          });
        if (live.length > 1)
          await tx.priceWatch.updateMany({
            where: { id: { in: live.slice(1).map((w) => w.id) } },
            data: { status: "item_sold", outcome: "item_sold", endedAt: new Date() },
          });
      });
      return;
    }
    case "reprice":
      // The one way a price changes: the row and its kind-'price' event in one transaction. A sold
      // item is not for sale and keeps its price (not_found); a sale side by side may sell it first.
      try {
        await setItemPrice(
          db(),
          { itemId: itemIds[step.item], priceCents: step.priceCents },
          { now: new Date() },
        );
      } catch (error) {
        if (!(error instanceof AppError && error.code === "not_found")) throw error;
      }
      return;
    case "relist":
      await db().item.update({ where: { id: itemIds[step.item] }, data: { status: "active" } });
      return;
    case "storeSelling":
      await db().store.update({
        where: { id: storeIds[step.store] },
        data: { canShip: step.canShip },
      });
      return;
    case "silentWatcher": {
      // A watch moved to another person and item, committed now with a clock read long ago, and no notification.
      const id = await pickRow("price_watches", step.pick);
      if (id !== undefined) {
        await silently(
          "UPDATE price_watches SET person_id = $2, item_id = $3, status = 'active', updated_at = $4 WHERE id = $1",
          [Number(id), personIds[step.person], itemIds[step.item], longAgo()],
        );
      }
      return;
    }
    case "loseListen":
      await db()
        .$executeRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'catalog-listen' AND datname = current_database()`;
      return;
    case "rebuild":
      await sync.rebuildNow();
      return;
  }
};

/** Waits until the index has heard and applied every change committed so far (and healed what nobody announced). */
const settle = async (steps: Action[], catchUpsBefore: number) => {
  if (steps.some((step) => step.kind === "loseListen")) {
    // Back on LISTEN, and the catch-up it runs after reconnecting (what was said meanwhile was heard by nobody) is done.
    await vi.waitFor(() => expect(sync.stats.catchUps).toBeGreaterThan(catchUpsBefore), {
      timeout: 20_000,
      interval: 50,
    });
  }
  await sync.settledAfterCommits();
  if (steps.some((step) => step.kind === "silentWatcher")) await sync.catchUpNow();
  await sync.settled();
};

const expectAgreement = async () => {
  const watchers = sync.watchers!;
  for (const viewer of [undefined, ...personIds]) {
    const inSql = await countWatchersInSql(db(), itemIds, viewer);
    expect(
      itemIds.map((id) => watchers.count(id, viewer)),
      `price_watchers for ${viewer ?? "nobody"}`,
    ).toEqual(inSql);
  }
  // The recent prices (price_drop, on_sale): each item's latest change, its old price, and the highest old price of the week.
  const sinceMs = Date.now() - dropWindowMs;
  const held: Record<number, number[]> = {};
  sync.index!.prices.forEach(sinceMs, (id, latestMs, previousCents, highCents) => {
    if (itemIds.includes(id)) held[id] = [latestMs, previousCents, highCents];
  });
  const changes = await db().$queryRaw<{ item_id: number; recent: number[] }[]>`
    SELECT DISTINCT ON (item_id) item_id, ARRAY[(extract(epoch FROM created_at) * 1000)::float8, old_price_cents,
      coalesce((SELECT max(old_price_cents) FROM price_change_events w WHERE w.item_id = e.item_id AND w.kind = 'price' AND w.created_at > ${new Date(sinceMs)}), -1)] AS recent
    FROM price_change_events e WHERE kind = 'price' AND item_id = ANY(${itemIds}::int[])
    ORDER BY item_id, created_at DESC, id DESC`;
  expect(held).toEqual(Object.fromEntries(changes.map((row) => [row.item_id, row.recent])));
  const { rows } = await rawItems();
  const inIndex = itemIds.map((id) => ({ id, ...sync.index!.describeItem(id) }));
  expect(inIndex).toEqual(
    rows.map((row) => ({
      id: row.id,
      priceCents: row.price_cents,
      isActive: row.active,
      storeListed: row.listed,
    })),
  );
};

const rawItems = async () => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await client.query<{
      id: number;
      price_cents: number;
      active: boolean;
      listed: boolean;
    }>(
      `SELECT i.id, i.price_cents, i.status = 'active' AS active, ${storeCanSellSql("s")} AS listed
       FROM items i JOIN stores s ON s.id = i.store_id WHERE i.id = ANY($1::int[]) ORDER BY array_position($1::int[], i.id)`,
      [itemIds],
    );
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  sync = new CatalogSync({ databaseUrl, catchUpMs: 600_000 });
  await sync.start();
  const stores = [await createStore(), await createStore()];
  storeIds = stores.map((store) => store.id);
  itemIds = [];
  for (const store of stores)
    for (let i = 0; i < 3; i++)
      itemIds.push((await createItem({ storeId: store.id, priceCents: 2000 + i * 1000 })).id);
  personIds = [];
  for (let i = 0; i < 3; i++) personIds.push((await createPerson()).person.id);
  clientId = (await createPartner()).client.id;
  await sync.settledAfterCommits();
}, 120_000);

afterAll(async () => {
  await sync?.stop();
});

describe("the index's watcher counts and items agree with PostgreSQL after every settle", () => {
  it("over random steps of writes side by side, lost LISTEN connections and rebuilds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(action, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        async (steps) => {
          for (const step of steps) {
            const catchUpsBefore = sync.stats.catchUps;
            await Promise.all(step.map(perform));
            await settle(step, catchUpsBefore);
            await expectAgreement();
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 300_000);
});
