/**
 * The writers of the price-watch emails, below the HTTP edge: each email's props carry the person's
 * language (persons.language, else English) and zone (their saved address's province), the watched
 * item as the catalogue has it (title, size as listed, condition, picture as an absolute URL, store,
 * price), the watch's limits, and for the bought email the purchase's OrderSummary, the assistant,
 * the charge and cancel times and the purchase's cancel link; and they render in that language.
 */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../../emails/render";
import type { PriceWatchBoughtProps } from "../../emails/price-watch-bought";
import type { PriceWatchEndedProps } from "../../emails/price-watch-ended";
import type { PriceWatchNeedsYouProps } from "../../emails/price-watch-needs-you";
import type { PriceWatchSetProps } from "../../emails/price-watch-set";
import { db } from "../platform/db";
import { env } from "../platform/env";
import { testCards } from "../payments/sandbox-cards";
import { setItemPrice } from "../catalogue/set-item-price";
import { processPriceChanges } from "../price-changes/process-price-changes";
import {
  cancelWatchVia,
  createBuyer,
  setWatch,
  watchableItem,
  type BuyerOptions,
} from "../testing/watch-fixtures";

const vancouver = {
  name: "Léa Gagnon",
  line1: "800 Robson St",
  city: "Vancouver",
  province: "BC",
  postal_code: "V6Z 2E7",
  country: "CA",
};

/** A buyer (French when `french`) with a watch on a $100 item: buy at $80 or less, $100 in all at most. */
const watching = async (options: BuyerOptions & { french?: boolean } = {}) => {
  const buyer = await createBuyer(options);
  if (options.french)
    await db().$executeRaw`UPDATE persons SET language = 'fr' WHERE id = ${buyer.person.id}`;
  const item = await watchableItem(10_000);
  const store = await db().store.findUniqueOrThrow({ where: { id: item.storeId } });
  const { status, body } = await setWatch(buyer.token, {
    catalog_item_id: String(item.id),
    max_price: 80,
    max_total: 100,
  });
  expect(status).toBe(201);
  return { ...buyer, item, store, watchId: body.price_watch_id as number };
};

const propsOf = async <P>(template: string, to: string) => {
  const [email] = await db().emailMessage.findMany({ where: { to, template } });
  expect(email, `a ${template} email to ${to}`).toBeDefined();
  return email.props as P;
};

const dropTo = async (itemId: number, priceCents: number) => {
  await setItemPrice(db(), { itemId, priceCents }, { now: new Date() });
  await processPriceChanges(db(), { now: () => new Date() });
};

describe("the set email's props", () => {
  it("carry the item, the limits, the cancel link, French and the zone of a saved BC address", async () => {
    const { person, agent, item, store, watchId } = await watching({
      french: true,
      address: vancouver,
    });
    const props = await propsOf<PriceWatchSetProps>("price-watch-set", person.email);
    const watch = await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } });
    expect(props).toMatchObject({
      locale: "fr-CA",
      timeZone: "America/Vancouver",
      assistant: agent.name,
      item: {
        title: item.title,
        size: "M",
        condition: "good",
        storeName: store.name,
        url: item.url,
        priceCents: 10_000,
      },
      maxPriceCents: 8_000,
      maxTotalCents: 10_000,
      expiresAt: watch.expiresAt.toISOString(),
    });
    const cover = await db().itemImage.findFirstOrThrow({ where: { itemId: item.id } });
    expect(cover.url.startsWith("/")).toBe(true);
    expect(props.item.imageUrl).toBe(`${env().PUBLIC_URL}${cover.url}`);
    expect(props.cancelUrl).toMatch(
      new RegExp(`^${env().PUBLIC_URL}/price-watches/${watchId}/cancel\\?token=`),
    );
    const email = await renderEmail("price-watch-set", props);
    expect(email.subject).toContain("a créé une surveillance de prix pour vous");
    expect(email.text).toContain(item.title);
    expect(email.text).toContain("heure du Pacifique");
  });

  it("read English and Toronto's zone for a person with no saved language", async () => {
    const { person } = await watching();
    expect(await propsOf<PriceWatchSetProps>("price-watch-set", person.email)).toMatchObject({
      locale: "en-CA",
      timeZone: "America/Toronto",
    });
  });
});

describe("the bought email's props", () => {
  it("carry the purchase's summary with absolute pictures, the ship-to, the assistant, the times and the purchase's cancel link", async () => {
    const { person, agent, item, store, watchId } = await watching({
      french: true,
      address: vancouver,
    });
    await dropTo(item.id, 7_500);
    const watch = await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } });
    expect(watch.status).toBe("fulfilled");
    const purchase = await db().purchase.findUniqueOrThrow({ where: { id: watch.purchaseId! } });
    const props = await propsOf<PriceWatchBoughtProps>("price-watch-bought", person.email);
    expect(props).toMatchObject({
      locale: "fr-CA",
      timeZone: "America/Vancouver",
      assistant: agent.name,
      title: item.title,
      priceCents: 7_500,
      orderNumber: purchase.orderNumber,
      grandTotalCents: purchase.grandTotalCents,
      chargesAt: purchase.chargesAt!.toISOString(),
      cancelUntil: purchase.cancelUntil.toISOString(),
    });
    expect(props.summary.stores).toHaveLength(1);
    expect(props.summary.stores[0]).toMatchObject({
      storeName: store.name,
      items: [{ title: item.title, size: "M", condition: "good", quantity: 1, lineCents: 7_500 }],
    });
    expect(props.summary.stores[0].items[0].imageUrl).toMatch(
      new RegExp(`^${env().PUBLIC_URL}/images/items/`),
    );
    expect(props.summary.shipTo).toContain("800 Robson St");
    expect(props.summary.totals.totalCents).toBe(purchase.grandTotalCents);
    expect(props.cancelUrl).toContain(`/purchases/${purchase.id}/cancel?token=`);
    // The item's chart with the watch's max price, in French (ADR 0119).
    expect(props.chart?.url).toContain(
      `/charts/price-history/${item.id}.png?target=8000&lang=fr-CA&token=`,
    );
    const email = await renderEmail("price-watch-bought", props);
    expect(email.subject).toContain("Votre surveillance de prix a acheté");
    expect(email.text).toContain(props.cancelUrl);
    expect(email.text).toContain("800 Robson St");
  });
});

describe("the needs-you and ended emails' props", () => {
  it("needs you: the item, the limits, why and the checkout link", async () => {
    const { person, item, watchId } = await watching({ card: testCards.declined, french: true });
    await dropTo(item.id, 7_500);
    const watch = await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } });
    expect(watch.status).toBe("needs_you");
    const props = await propsOf<PriceWatchNeedsYouProps>("price-watch-needs-you", person.email);
    expect(props).toMatchObject({
      locale: "fr-CA",
      timeZone: "America/Toronto",
      item: { title: item.title, size: "M", condition: "good", priceCents: 7_500 },
      priceCents: 7_500,
      maxPriceCents: 8_000,
      maxTotalCents: 10_000,
      reason: "card_declined",
    });
    expect(props.checkoutUrl).toMatch(/\/checkout\/chk_/);
    expect(Number.isNaN(Date.parse(props.checkoutExpiresAt))).toBe(false);
  });

  it("ended together (a sold item's other watchers): each in its own reader's language and zone", async () => {
    const item = await watchableItem(10_000);
    const first = await createBuyer();
    const french = await createBuyer({ address: vancouver });
    await db().$executeRaw`UPDATE persons SET language = 'fr' WHERE id = ${french.person.id}`;
    const english = await createBuyer();
    // Oldest first: the first buys the one unit, the two others end item_sold in one transaction.
    for (const buyer of [first, french, english])
      expect(
        (
          await setWatch(buyer.token, {
            catalog_item_id: String(item.id),
            max_price: 80,
            max_total: 100,
          })
        ).status,
      ).toBe(201);
    await dropTo(item.id, 7_500);
    expect(
      await propsOf<PriceWatchEndedProps>("price-watch-ended", french.person.email),
    ).toMatchObject({ locale: "fr-CA", timeZone: "America/Vancouver", outcome: "item_sold" });
    expect(
      await propsOf<PriceWatchEndedProps>("price-watch-ended", english.person.email),
    ).toMatchObject({ locale: "en-CA", timeZone: "America/Toronto", outcome: "item_sold" });
  });

  it("ended: the item, the limits and the outcome", async () => {
    const { person, token, item, store, watchId } = await watching({ address: vancouver });
    expect((await cancelWatchVia(token, watchId)).status).toBe(200);
    const props = await propsOf<PriceWatchEndedProps>("price-watch-ended", person.email);
    expect(props).toMatchObject({
      locale: "en-CA",
      timeZone: "America/Vancouver",
      outcome: "cancelled",
      item: { title: item.title, storeName: store.name, priceCents: 10_000 },
      maxPriceCents: 8_000,
      maxTotalCents: 10_000,
    });
    const email = await renderEmail("price-watch-ended", props);
    expect(email.subject).toBe(`Your price watch on ${item.title} is cancelled`);
    expect(email.text).toContain("Pacific Time");
  });
});
