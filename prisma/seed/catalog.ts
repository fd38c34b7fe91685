/**
 * Deterministic sandbox catalogue generator and bulk loader. The same --seed gives the same stores,
 * categories and items. Rows go in with `INSERT ... SELECT FROM unnest(...)` in batches, so a
 * million items load in minutes. Store 0 sells `direct`; stores 1, 2 and 3 are closed, cannot ship
 * and cannot take payment, so their items are never listed.
 */
import pg from "pg";
import { sizeKeys } from "../../server/core/sizes";
import {
  adjectives,
  brands,
  categoryLeaves,
  colors,
  conditionsWeighted,
  inseams,
  letterSpellings,
  provinces,
  shoeSizes,
  storeNames,
  type Leaf,
  waistSizes,
} from "./vocabulary";
import { prng } from "./prng";

export type SeedOptions = {
  items: number;
  stores: number;
  seed: number;
  log?: (line: string) => void;
};

type Random = ReturnType<typeof prng>;
const pick = <T>(random: Random, list: readonly T[]) => list[Math.floor(random() * list.length)];
/** Zipf-like pick: earlier entries far more common. */
const pickSkewed = <T>(random: Random, list: readonly T[], skew = 2.2) =>
  list[Math.floor(Math.pow(random(), skew) * list.length)];
const pickWeighted = <T>(random: Random, list: readonly [T, number][]) => {
  const total = list.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of list) if ((roll -= weight) < 0) return value;
  return list[list.length - 1][0];
};

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

// A fixed reference instant keeps created_at deterministic for a given seed.
const referenceTime = Date.UTC(2026, 9, 1);
const yearMs = 365 * 24 * 3600 * 1000;

const sizeFor = (random: Random, system: Leaf["sizes"]): string => {
  if (system === "letter")
    return pick(
      random,
      pickSkewed(
        random,
        [
          letterSpellings[2],
          letterSpellings[1],
          letterSpellings[3],
          letterSpellings[0],
          letterSpellings[4],
          letterSpellings[5],
        ],
        1.3,
      ),
    );
  if (system === "shoe") {
    const size = pick(random, shoeSizes);
    return random() < 0.3 ? `US ${size}` : size;
  }
  if (system === "waist") {
    const waist = pick(random, waistSizes);
    const roll = random();
    return roll < 0.5
      ? `${waist}x${pick(random, inseams)}`
      : roll < 0.7
        ? `W${waist} L${pick(random, inseams)}`
        : waist;
  }
  return random() < 0.7 ? "One Size" : "OS";
};

/** Price in cents from a brand tier and a category factor, skewed low, ending in .00, .50 or .99. */
const priceFor = (random: Random, tier: number, factor: number) => {
  const base = [0, 12, 30, 70, 180, 500][tier] * factor;
  const dollars = Math.max(4, Math.round(base * (0.35 + Math.pow(random(), 1.8) * 3.2)));
  const cents = pick(random, [0, 0, 50, 99]);
  return Math.min(dollars, 4500) * 100 + cents;
};

export const seedCatalog = async (client: pg.Client, options: SeedOptions) => {
  const log = options.log ?? (() => undefined);
  const random = prng(options.seed);
  const storeCount = Math.max(8, options.stores);
  await client.query("BEGIN");
  await client.query("SELECT pg_advisory_xact_lock(72707370)");
  const { rows: existing } = await client.query<{ count: string }>("SELECT count(*) FROM items");
  if (Number(existing[0].count) > 0) {
    await client.query("ROLLBACK");
    return { skipped: true as const, items: Number(existing[0].count) };
  }

  // Categories: every prefix of every leaf path, parents first.
  const paths = [
    ...new Set(
      categoryLeaves.flatMap((leaf) =>
        leaf.path.split(" > ").map((_, i, parts) => parts.slice(0, i + 1).join(" > ")),
      ),
    ),
  ];
  const categoryIds = new Map<string, number>();
  for (const path of paths.sort(
    (a, b) => a.split(" > ").length - b.split(" > ").length || a.localeCompare(b),
  )) {
    const parts = path.split(" > ");
    const parentId = parts.length > 1 ? categoryIds.get(parts.slice(0, -1).join(" > ")) : null;
    const { rows } = await client.query<{ id: number }>(
      "INSERT INTO categories (path, name, depth, parent_id) VALUES ($1, $2, $3, $4) ON CONFLICT (path) DO UPDATE SET name = EXCLUDED.name RETURNING id",
      [path, parts[parts.length - 1], parts.length - 1, parentId],
    );
    categoryIds.set(path, rows[0].id);
  }

  // Stores, with the four special ones first.
  const storeIds: number[] = [];
  const storeUrls = new Map<number, string>();
  for (let index = 0; index < storeCount; index++) {
    const name =
      index < storeNames.length ? storeNames[index] : `${pick(random, storeNames)} ${index}`;
    const slug = slugify(name);
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO stores (slug, name, url, province, is_open, can_take_payment, can_ship, agent_checkout, offers_price_alerts, free_shipping_threshold_cents, payout_account)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        slug,
        name,
        `https://${slug}.shops.example.ca`,
        provinces[index % provinces.length],
        index !== 1,
        index !== 3,
        index !== 2,
        index === 0 ? "direct" : "link",
        index % 2 === 0,
        index % 4 === 3 ? null : [7500, 10000, 15000][index % 3],
        // Each sandbox store is connected to an account of the sandbox processor (docs/adr/0106).
        `acct_sandbox_${slug}`,
      ],
    );
    const storeId = rows[0].id;
    storeIds.push(storeId);
    storeUrls.set(storeId, `https://${slug}.shops.example.ca`);
    const standard = 895 + (index % 5) * 100;
    await client.query(
      `INSERT INTO shipping_rates (store_id, key, label, base_cents, per_item_cents, remote_surcharge_cents, min_days, max_days) VALUES
       ($1, 'standard', 'Canada Post Regular Parcel', $2, 250, 1500, 4, 9),
       ($1, 'expedited', 'Canada Post Expedited', $3, 350, 2000, 2, 5),
       ($1, 'express', 'Purolator Express', $4, 500, 3000, 1, 2)`,
      [storeId, standard, standard + 700, standard + 1600],
    );
  }

  const { rows: maxRows } = await client.query<{ max: number | null }>(
    "SELECT max(id) AS max FROM items",
  );
  let nextItemId = (maxRows[0].max ?? 0) + 1;
  const batchSize = 5000;
  for (let done = 0; done < options.items; done += batchSize) {
    const count = Math.min(batchSize, options.items - done);
    const items = {
      id: [] as number[],
      store: [] as number[],
      category: [] as number[],
      title: [] as string[],
      brand: [] as (string | null)[],
      description: [] as string[],
      price: [] as number[],
      condition: [] as (string | null)[],
      url: [] as string[],
      sizes: [] as string[],
      keys: [] as string[],
      colors: [] as string[],
      created: [] as string[],
      cover: [] as (string | null)[],
      available: [] as boolean[],
    };
    const variants = {
      item: [] as number[],
      size: [] as (string | null)[],
      key: [] as (string | null)[],
      color: [] as string[],
      quantity: [] as number[],
    };
    const images = {
      item: [] as number[],
      url: [] as string[],
      position: [] as number[],
      cover: [] as boolean[],
    };
    for (let n = 0; n < count; n++) {
      const id = nextItemId++;
      const leaf = pickSkewed(random, categoryLeaves, 1.2);
      const [brand, tier] = random() < 0.05 ? [null, 2] : pickSkewed(random, brands, 2.4);
      const color = pickSkewed(random, colors, 1.6);
      const condition = pickWeighted(random, conditionsWeighted);
      const isMultiVariant =
        (condition === "new_with_tags" || condition === "new_without_tags") && random() < 0.35;
      const sizes = isMultiVariant
        ? [
            ...new Set(
              Array.from({ length: 2 + Math.floor(random() * 3) }, () =>
                sizeFor(random, leaf.sizes),
              ),
            ),
          ]
        : [sizeFor(random, leaf.sizes)];
      const adjective = pick(random, adjectives);
      const title = `${brand && random() < 0.5 ? `${brand} ` : ""}${adjective} ${color[0].toUpperCase()}${color.slice(1)} ${leaf.noun}`;
      const storeId = storeIds[Math.floor(Math.pow(random(), 1.5) * storeIds.length)];
      items.id.push(id);
      items.store.push(storeId);
      items.category.push(categoryIds.get(leaf.path)!);
      items.title.push(title);
      items.brand.push(brand);
      items.description.push(
        `${condition ? condition.replace(/_/g, " ") : "Pre-loved"} ${adjective.toLowerCase()} ${leaf.noun.toLowerCase()}${brand ? ` by ${brand}` : ""}. Colour: ${color}. Sizes: ${sizes.join(", ")}.`,
      );
      items.price.push(priceFor(random, tier, leaf.priceFactor));
      items.condition.push(condition);
      items.url.push(`${storeUrls.get(storeId)}/products/${id}`);
      items.sizes.push(pgArray(sizes));
      items.keys.push(pgArray(sizeKeys(sizes)));
      items.colors.push(pgArray([color]));
      items.created.push(new Date(referenceTime - Math.floor(random() * yearMs)).toISOString());
      let isAvailable = false;
      for (const size of sizes) {
        variants.item.push(id);
        variants.size.push(size);
        variants.key.push(sizeKeys([size])[0]);
        variants.color.push(color);
        const quantity = isMultiVariant ? 1 + Math.floor(random() * 3) : 1;
        variants.quantity.push(quantity);
        isAvailable ||= quantity > 0;
      }
      items.available.push(isAvailable);
      const imageCount = random() < 0.4 ? 2 : 1;
      for (let position = 0; position < imageCount; position++) {
        images.item.push(id);
        // Relative to the service's own origin (PUBLIC_URL is added when serialised): sandbox pictures.
        images.url.push(`/images/items/${id}/${position + 1}.svg`);
        images.position.push(position);
        images.cover.push(position === 0);
        if (position === 0) items.cover.push(images.url.at(-1)!);
      }
    }
    await client.query(
      // The cover and availability as the triggers after the variants and images inserts would set
      // them (ADR 0133): they then find nothing to change, and a bulk load writes each item once.
      `INSERT INTO items (id, store_id, category_id, title, brand, description, price_cents, condition, url, sizes, size_keys, colors, created_at, updated_at, cover_url, is_available)
       SELECT id, store_id, category_id, title, brand, description, price_cents, condition::"ItemCondition", url, sizes::text[], size_keys::text[], colors::text[], created_at, created_at, cover_url, is_available
       FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[], $14::text[], $15::bool[])
         AS t(id, store_id, category_id, title, brand, description, price_cents, condition, url, sizes, size_keys, colors, created_at, cover_url, is_available)`,
      [
        items.id,
        items.store,
        items.category,
        items.title,
        items.brand,
        items.description,
        items.price,
        items.condition,
        items.url,
        items.sizes,
        items.keys,
        items.colors,
        items.created,
        items.cover,
        items.available,
      ],
    );
    await client.query(
      `INSERT INTO variants (item_id, size, size_key, color, quantity) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[])`,
      [variants.item, variants.size, variants.key, variants.color, variants.quantity],
    );
    await client.query(
      `INSERT INTO item_images (item_id, url, position, is_cover) SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::bool[])`,
      [images.item, images.url, images.position, images.cover],
    );
    if ((done / batchSize) % 20 === 0) log(`seeded ${done + count} of ${options.items} items`);
  }
  await client.query(
    "SELECT setval(pg_get_serial_sequence('items', 'id'), (SELECT coalesce(max(id), 1) FROM items))",
  );
  await client.query("COMMIT");
  await client.query("ANALYZE items; ANALYZE variants; ANALYZE stores;");
  return {
    skipped: false as const,
    items: options.items,
    stores: storeCount,
    categories: paths.length,
  };
};

/** A text[] literal, quoting every element. */
const pgArray = (values: string[]) =>
  `{${values.map((value) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
