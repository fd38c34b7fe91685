/**
 * Regression (issue 24 §2): the gathered `watchers:` reload must never stop the index from applying
 * later changes. One transaction that writes a watch and changes an item sends a `watchers:` and an
 * `item:` notification together: the item's drain applies both at once, and the `watchers:` timer
 * then fires with nothing queued. Before the fix that empty drain finished before its promise was
 * stored, so `draining` kept a settled promise forever: every later change (and every catch-up)
 * was answered by it and nothing was applied again (a fulfilled watch counted, a new alert not).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createItem, createPartner, createPerson, createStore } from "../../../../prisma/factories";
import { randomId } from "../../../core/ids";
import { db } from "../../../platform/db";
import { CatalogSync } from "./catalog-sync";
import { writeSilently } from "../../../testing/silent-writes";

let sync: CatalogSync;

beforeAll(async () => {
  sync = new CatalogSync({
    databaseUrl: process.env.DATABASE_URL!,
    catchUpMs: 600_000,
    watchersBatchMs: 200,
  });
  await sync.start();
}, 60_000);

afterAll(async () => {
  await sync?.stop();
});

const counted = (itemId: number) => sync.watchers?.count(itemId, undefined);

describe("watcher counts after a gathered reload found nothing left to do", () => {
  it("a watch written with an item change, then an alert: both counted, and the item change applied", async () => {
    const store = await createStore();
    const [first, second] = [
      await createItem({ storeId: store.id, priceCents: 3000 }),
      await createItem({ storeId: store.id, priceCents: 4000 }),
    ];
    const { person } = await createPerson();
    const { client } = await createPartner();
    const watch = await db().$transaction(async (tx) => {
      const created = await tx.priceWatch.create({
        data: {
          personId: person.id,
          clientId: client.id,
          itemId: first.id,
          maxPriceCents: 1000,
          maxTotalCents: 2000,
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
      await tx.item.update({ where: { id: first.id }, data: { priceCents: 2900 } });
      return created;
    });
    await vi.waitFor(() => expect(counted(first.id)).toBe(1), { timeout: 1000, interval: 10 });
    // Past the gathering window: the `watchers:` timer has fired (with nothing left to reload).
    await new Promise((resolve) => setTimeout(resolve, 400));

    await db().priceWatch.update({ where: { id: watch.id }, data: { status: "fulfilled" } });
    await db().priceAlert.create({
      data: {
        id: randomId("alr_"),
        personId: person.id,
        clientId: client.id,
        itemId: second.id,
        targetPriceCents: 1000,
      },
    });
    await db().item.update({ where: { id: second.id }, data: { priceCents: 3900 } });
    await vi.waitFor(
      () => {
        expect(counted(first.id)).toBe(0);
        expect(counted(second.id)).toBe(1);
        expect(sync.index?.describeItem(second.id)?.priceCents).toBe(3900);
      },
      { timeout: 2000, interval: 20 },
    );
    await sync.settled();
  });
});

describe("the catch-up finds a divergence per item", () => {
  /** Writes with every trigger off (no notification, updated_at as given), as a lost notification would leave it. */
  const silently = writeSilently;

  it("a fulfilled watch still counted and an alert not counted (the same total, old updated_at) are both healed", async () => {
    const store = await createStore();
    const [first, second] = [
      await createItem({ storeId: store.id }),
      await createItem({ storeId: store.id }),
    ];
    const { person } = await createPerson();
    const { client } = await createPartner();
    const watch = await db().priceWatch.create({
      data: {
        personId: person.id,
        clientId: client.id,
        itemId: first.id,
        maxPriceCents: 1000,
        maxTotalCents: 2000,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    await vi.waitFor(() => expect(counted(first.id)).toBe(1), { timeout: 1000, interval: 10 });
    // Committed now with a clock read long ago: a `updated_at > watermark` scan skips both rows.
    const longAgo = new Date(Date.now() - 3_600_000);
    await silently([
      [
        "UPDATE price_watches SET status = 'fulfilled', updated_at = $2 WHERE id = $1",
        [watch.id, longAgo],
      ],
      [
        "INSERT INTO price_alerts (id, person_id, client_id, item_id, target_price_cents, status, created_at, updated_at) VALUES ($1, $2, $3, $4, 1000, 'active', $5, $5)",
        [randomId("alr_"), person.id, client.id, second.id, longAgo],
      ],
    ]);
    await sync.catchUpNow();
    await sync.settled();
    expect([counted(first.id), counted(second.id)]).toEqual([0, 1]);
  });

  it("a person seen on the wrong item of one bucket is healed too (the same rows per bucket)", async () => {
    const store = await createStore();
    const first = await createItem({ storeId: store.id });
    const { person: ana } = await createPerson();
    const { person: ben } = await createPerson();
    const { client } = await createPartner();
    const alert = await db().priceAlert.create({
      data: {
        id: randomId("alr_"),
        personId: ana.id,
        clientId: client.id,
        itemId: first.id,
        targetPriceCents: 1000,
      },
    });
    await vi.waitFor(() => expect(sync.watchers?.count(first.id, ana.id)).toBe(0), {
      timeout: 1000,
      interval: 10,
    });
    await silently([
      [
        "UPDATE price_alerts SET person_id = $2, updated_at = $3 WHERE id = $1",
        [alert.id, ben.id, new Date(Date.now() - 3_600_000)],
      ],
    ]);
    await sync.catchUpNow();
    await sync.settled();
    expect([
      sync.watchers?.count(first.id, ana.id),
      sync.watchers?.count(first.id, ben.id),
    ]).toEqual([1, 0]);
  });
});
