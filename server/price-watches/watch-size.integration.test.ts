/**
 * POST /price-watches on the reference's body (issue 24, section 1): `size` is optional. Spellings
 * of one size are one size; left out, the person's saved size among the item's chooses, and none or
 * several of them is 409 size_required listing the item's sizes. The watch buys whichever spelling
 * of its size is available when it buys.
 */
import { describe, expect, it } from "vitest";
import { createItem, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { setItemPrice } from "../catalogue/set-item-price";
import { createBuyer, getWatch, setWatch } from "../testing/watch-fixtures";

const sizedItem = async (sizes: string[]) =>
  createItem({
    storeId: (await createStore({ agentCheckout: "direct" })).id,
    priceCents: 10_000,
    sizes,
  });

/** A buyer whose saved sizes are `sizes` (as typed on the account page). */
const buyerWithSizes = async (sizes: string[]) => {
  const buyer = await createBuyer();
  await db().person.update({ where: { id: buyer.person.id }, data: { sizes } });
  return buyer;
};

const watchBody = (itemId: number, overrides: Record<string, unknown> = {}) => ({
  catalog_item_id: String(itemId),
  max_price: 80,
  max_total: 100,
  days: 7,
  ...overrides,
});

describe("POST /price-watches without size", () => {
  it("an item with one variant needs none", async () => {
    const { token } = await buyerWithSizes([]);
    const item = await sizedItem(["M"]);
    expect(await setWatch(token, watchBody(item.id))).toMatchObject({
      status: 201,
      body: { status: "active", size: "M" },
    });
  });

  it("two spellings of one size are one size: none needed, whatever the saved sizes", async () => {
    const { token } = await buyerWithSizes(["XL"]);
    const item = await sizedItem(["OS", "One Size"]);
    expect(await setWatch(token, watchBody(item.id))).toMatchObject({
      status: 201,
      body: { status: "active" },
    });
  });

  it("several sizes with one saved among them: that size (saved as typed, matched normalised)", async () => {
    const { token } = await buyerWithSizes(["medium", "10"]);
    const item = await sizedItem(["XS", "XXL", "Med", "MD"]);
    const { status, body } = await setWatch(token, watchBody(item.id));
    expect(status).toBe(201);
    expect(["Med", "MD"]).toContain(body.size);
  });

  it("several sizes with none or several saved among them: 409 size_required listing the sizes as listed, nothing set", async () => {
    const item = await sizedItem(["XS", "XXL", "Med", "MD"]);
    for (const sizes of [[], ["L"], ["XS", "M"]]) {
      const { token } = await buyerWithSizes(sizes);
      const { status, body } = await setWatch(token, watchBody(item.id));
      expect(status, sizes.join()).toBe(409);
      expect(body.error.code).toBe("size_required");
      expect(body.error.message).toContain("XS, XXL, Med, MD");
      expect(body.error.fields).toBeUndefined();
    }
    expect(await db().priceWatch.count({ where: { itemId: item.id } })).toBe(0);
  });
});

describe("POST /price-watches with size", () => {
  it("an explicit size wins over the saved ones, in any spelling; one the item lacks is 422 on size", async () => {
    const { token } = await buyerWithSizes(["M"]);
    const item = await sizedItem(["S", "M", "L"]);
    expect(await setWatch(token, watchBody(item.id, { size: "Small" }))).toMatchObject({
      status: 201,
      body: { size: "S" },
    });
    const other = await sizedItem(["S", "M"]);
    const refused = await setWatch(token, watchBody(other.id, { size: "XL" }));
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields.size).toMatch(/is not a size of item/);
  });
});

describe("a watch on a size listed in two spellings", () => {
  it("buys the spelling that is available", async () => {
    const { token } = await buyerWithSizes(["M"]);
    const item = await sizedItem(["XS", "Med", "MD"]);
    const { body: set } = await setWatch(token, watchBody(item.id));
    expect(set.size).toBe("Med");
    // The spelling the watch was set on sells out; the other spelling of M is still there.
    await db().variant.updateMany({
      where: { itemId: item.id, size: "Med" },
      data: { quantity: 0 },
    });
    await setItemPrice(db(), { itemId: item.id, priceCents: 7_500 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    const { body } = await getWatch(token, set.price_watch_id);
    expect(body).toMatchObject({ status: "fulfilled", outcome: "bought" });
    const purchase = await db().purchase.findUniqueOrThrow({
      where: { id: body.purchase_id },
      select: { quote: { select: { snapshot: true } } },
    });
    expect(JSON.stringify(purchase.quote.snapshot)).toContain('"size":"MD"');
  });
});
