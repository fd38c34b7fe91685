/** The sandbox catalogue generator: deterministic, realistic, with the special stores. */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "../../server/platform/db";
import { seedCatalog } from "./catalog";

describe("catalog:seed", () => {
  it("loads a realistic catalogue with the special stores, once", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const first = await seedCatalog(client, { items: 2000, stores: 8, seed: 3 });
    const again = await seedCatalog(client, { items: 2000, stores: 8, seed: 3 });
    // The loader's counts reach pg_stat_user_tables when this session next reports (PostgreSQL 15).
    await client.query("SELECT pg_stat_force_next_flush()");
    await client.end();
    expect(first).toMatchObject({ skipped: false, items: 2000, stores: 8 });
    expect(again).toMatchObject({ skipped: true });

    // Each item written once, with the cover and availability its images' and variants' triggers
    // keep (ADR 0133): a bulk load that updated every item after inserting it would double the table.
    const [card] = await db().$queryRaw<{ disagreeing: number; updated: number }[]>`
      SELECT (SELECT count(*)::int FROM items i
              WHERE i.cover_url IS DISTINCT FROM (SELECT m.url FROM item_images m WHERE m.item_id = i.id AND m.is_cover ORDER BY m.position, m.id LIMIT 1)
                 OR i.is_available IS DISTINCT FROM EXISTS (SELECT 1 FROM variants v WHERE v.item_id = i.id AND v.quantity > 0)) AS disagreeing,
             (SELECT n_tup_upd::int FROM pg_stat_user_tables WHERE relname = 'items') AS updated`;
    expect(card).toEqual({ disagreeing: 0, updated: 0 });

    const stores = await db().store.findMany({ orderBy: { id: "asc" } });
    expect(stores[0].agentCheckout).toBe("direct");
    expect(stores.filter((store) => !store.isOpen)).toHaveLength(1);
    expect(stores.filter((store) => !store.canShip)).toHaveLength(1);
    expect(stores.filter((store) => !store.canTakePayment)).toHaveLength(1);

    const deepest = await db().category.aggregate({ _max: { depth: true } });
    expect(deepest._max.depth).toBeGreaterThanOrEqual(2);
    const conditions = await db().item.groupBy({ by: ["condition"], _count: true });
    expect(conditions.map((row) => row.condition).sort()).toEqual(
      ["excellent", "fair", "good", "new_with_tags", "new_without_tags", null].sort(),
    );
    const sizes = new Set(
      (await db().variant.findMany({ select: { size: true } })).map((variant) => variant.size),
    );
    for (const spelling of ["MD", "Medium", "M", "8", "US 8"]) expect(sizes).toContain(spelling);
    expect([...sizes].some((size) => /^\d{2}x\d{2}$/.test(size ?? ""))).toBe(true);
    const prices = await db().item.aggregate({
      _min: { priceCents: true },
      _max: { priceCents: true },
    });
    expect(prices._min.priceCents).toBeLessThan(1500);
    expect(prices._max.priceCents).toBeGreaterThan(100000);
  }, 60_000);

  it("is deterministic for a seed", async () => {
    const items = await db().item.findMany({
      select: { title: true, priceCents: true, sizes: true },
      orderBy: { id: "asc" },
      take: 50,
    });
    const expected = items.map(
      (item) => `${item.title}|${item.priceCents}|${item.sizes.join(",")}`,
    );
    // A second database seeded with the same seed yields the same first items.
    const { withAdmin, databaseUrl } = await import("../../server/testing/databases");
    const { migrate } = await import("../../server/edges/ops/migrate");
    const name = `shopping_seed_check_${process.pid}_${Date.now()}`;
    await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
    try {
      await migrate(databaseUrl(name));
      const client = new pg.Client({ connectionString: databaseUrl(name) });
      await client.connect();
      await seedCatalog(client, { items: 2000, stores: 8, seed: 3 });
      const { rows } = await client.query(
        "SELECT title, price_cents, sizes FROM items ORDER BY id LIMIT 50",
      );
      await client.end();
      expect(rows.map((row) => `${row.title}|${row.price_cents}|${row.sizes.join(",")}`)).toEqual(
        expected,
      );
    } finally {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 60_000);
});
