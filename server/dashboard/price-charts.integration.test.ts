/**
 * The dashboard's watches and alerts carry each item's price chart, drawn on the server (ADR 0119):
 * an SVG image with its title and words, the watch's max price or the alert's target as its line,
 * in the person's language; an item's history is read for the whole page at once.
 */
import { describe, expect, it } from "vitest";
import { createItem, createPartner, createPerson, createStore } from "../../prisma/factories";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { setItemPrice } from "../catalogue/set-item-price";
import { shopperCaller as shopper } from "../testing/callers";
import { createBuyer, setWatch, watchableItem } from "../testing/watch-fixtures";

/** Formatted amounts hold non-breaking spaces (in the SVG, written as &#160;). */
const nbsp = (text: string) => text.replace(/[\u00a0\u202f]|&#160;|&#8239;/g, " ");

describe("dashboard price charts", () => {
  it("each watch shows its item's chart with the watch's max price", async () => {
    const buyer = await createBuyer();
    const items = [await watchableItem(10_000), await watchableItem(6_000)];
    for (const [index, item] of items.entries())
      expect(
        (
          await setWatch(buyer.token, {
            catalog_item_id: String(item.id),
            max_price: 50 + index,
            max_total: 200,
          })
        ).status,
      ).toBe(201);
    await setItemPrice(db(), { itemId: items[0].id, priceCents: 9_000 }, { now: new Date() });
    const list = await shopper(buyer.person.id).account.listMyWatches();
    expect(list.watches).toHaveLength(2);
    for (const watch of list.watches) {
      const item = items.find((candidate) => String(candidate.id) === watch.catalog_item_id)!;
      const chart = watch.price_chart!;
      expect(chart.svg).toMatch(/^<svg [^>]*role="img"/);
      expect(chart.svg).toContain(`<title>Price history of ${item.title}</title>`);
      expect(chart.svg).toContain(`>Target $${watch.max_price.amount}</text>`);
      expect(chart.svg).toContain(`aria-label="${chart.summary}"`);
    }
    const moved = list.watches.find((watch) => watch.catalog_item_id === String(items[0].id))!;
    // Read again (the page's 15-second refresh): the same charts, kept rather than drawn again.
    const again = await shopper(buyer.person.id).account.listMyWatches();
    expect(again.watches.map((watch) => watch.price_chart)).toEqual(
      list.watches.map((watch) => watch.price_chart),
    );
    expect(moved.price_chart!.summary).toMatch(
      /^Price from \$100\.00 to \$90\.00 since .+; target \$50\.00; lowest \$90\.00$/,
    );
  });

  it("each alert shows its item's chart with the alert's target, in the person's language", async () => {
    const { person } = await createPerson();
    await db().$executeRaw`UPDATE persons SET language = 'fr' WHERE id = ${person.id}`;
    const { client } = await createPartner();
    const item = await createItem({ storeId: (await createStore()).id, priceCents: 5_000 });
    await db().priceAlert.create({
      data: {
        id: randomId("alr_"),
        personId: person.id,
        clientId: client.id,
        itemId: item.id,
        targetPriceCents: 4_000,
      },
    });
    const [alert] = (await shopper(person.id).account.listMyAlerts()).data;
    expect(alert.price_chart!.svg).toContain(`<title>Historique du prix de ${item.title}</title>`);
    expect(nbsp(alert.price_chart!.summary)).toMatch(
      /^Prix de 50,00 \$ depuis le .+, sans changement; cible 40,00 \$$/,
    );
    expect(nbsp(alert.price_chart!.svg)).toContain(">Cible 40,00 $</text>");
  });
});
