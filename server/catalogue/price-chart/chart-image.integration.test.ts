/**
 * The chart image route (GET /charts/price-history/{item_id}.png, app/charts/price-history/[file]):
 * a signed address gets the PNG with its cache headers; a forged, altered, expired or other
 * purpose's token, a hostile file name, target or language, and an item that is gone are 404 in
 * the shared error shape, never a 500 and never a stack. Also the batched history read of the
 * dashboard's pages, and the set email's chart, whose address the route draws.
 */
import { describe, expect, it } from "vitest";
import { GET } from "@/app/charts/price-history/[file]/route";
import type { PriceWatchSetProps } from "../../../emails/price-watch-set";
import { createItem, createStore } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { createLinkToken } from "../../platform/mail/links";
import { createBuyer, setWatch, watchableItem } from "../../testing/watch-fixtures";
import { setItemPrice } from "../set-item-price";
import { readPriceHistories } from "../store/price-histories";
import { readPriceHistory } from "../store/price-history";
import { priceChartImage, priceChartImageUrl } from "./chart-links";

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

/** GET as Next calls the route: the request and the path's last segment. */
const get = (url: string) => {
  const file = decodeURIComponent(new URL(url).pathname.split("/").at(-1)!);
  return GET(new Request(url), { params: Promise.resolve({ file }) });
};

const pngSize = (bytes: Buffer) => ({
  isPng: bytes.subarray(1, 4).toString("ascii") === "PNG",
  width: bytes.readUInt32BE(16),
  height: bytes.readUInt32BE(20),
});

const itemWithHistory = async () => {
  const item = await createItem({
    storeId: (await createStore()).id,
    priceCents: 12_000,
    createdAt: inDays(-40),
  });
  await setItemPrice(db(), { itemId: item.id, priceCents: 9_500 }, { now: inDays(-20) });
  await setItemPrice(db(), { itemId: item.id, priceCents: 8_000 }, { now: inDays(-5) });
  return item;
};

const expectRefused = async (url: string) => {
  const response = await get(url);
  expect(response.status, url).toBe(404);
  const body = await response.text();
  expect(JSON.parse(body)).toMatchObject({ error: { code: "not_found" } });
  expect(body).not.toMatch(/\bat .*\.ts:\d+/);
};

describe("the chart image route", () => {
  it("draws a signed chart: 200 image/png, 560×200, cached an hour", async () => {
    const item = await itemWithHistory();
    const url = priceChartImageUrl({
      itemId: item.id,
      targetCents: 7_500,
      locale: "en-CA",
      expiresAt: inDays(30),
    });
    expect(url.startsWith(`${env().PUBLIC_URL}/charts/price-history/${item.id}.png?`)).toBe(true);
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const png = Buffer.from(await response.arrayBuffer());
    expect(pngSize(png)).toEqual({ isPng: true, width: 560, height: 200 });
    expect(Number(response.headers.get("content-length"))).toBe(png.length);
    // Drawn again (or kept): the same picture.
    expect(Buffer.from(await (await get(url)).arrayBuffer()).equals(png)).toBe(true);
  });

  it("requests at once for one chart share its drawing: all 200, the same bytes", async () => {
    const item = await itemWithHistory();
    const url = priceChartImageUrl({
      itemId: item.id,
      targetCents: 9_000,
      locale: "fr-CA",
      expiresAt: inDays(30),
    });
    const responses = await Promise.all(Array.from({ length: 8 }, () => get(url)));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    const bodies = await Promise.all(
      responses.map(async (response) => Buffer.from(await response.arrayBuffer())),
    );
    for (const body of bodies) expect(body.equals(bodies[0]!)).toBe(true);
  });

  it("refuses what it did not sign: altered signature, expired, another target, item or language, another purpose", async () => {
    const item = await itemWithHistory();
    const chart = { itemId: item.id, targetCents: 7_500, locale: "en-CA" as const };
    const url = new URL(priceChartImageUrl({ ...chart, expiresAt: inDays(30) }));
    const token = url.searchParams.get("token")!;
    const altered = (change: (query: URLSearchParams) => void, path = url.pathname) => {
      const copy = new URL(url);
      copy.pathname = path;
      change(copy.searchParams);
      return copy.toString();
    };
    await expectRefused(altered((query) => query.set("token", `${token.slice(0, -2)}AA`)));
    await expectRefused(altered((query) => query.set("target", "100")));
    await expectRefused(altered((query) => query.set("lang", "fr-CA")));
    await expectRefused(altered(() => undefined, `/charts/price-history/${item.id + 1}.png`));
    await expectRefused(altered((query) => query.delete("token")));
    await expectRefused(priceChartImageUrl({ ...chart, expiresAt: inDays(-1) }));
    const cancelToken = createLinkToken({
      purpose: "price-watch-cancel",
      subject: `${item.id}:7500:en-CA`,
      expiresAt: inDays(30),
    });
    await expectRefused(altered((query) => query.set("token", cancelToken)));
  });

  it("hostile inputs are 404, never 500", async () => {
    const item = await itemWithHistory();
    const url = new URL(
      priceChartImageUrl({
        itemId: item.id,
        targetCents: 7_500,
        locale: "en-CA",
        expiresAt: inDays(30),
      }),
    );
    const base = `${env().PUBLIC_URL}/charts/price-history`;
    const query = url.search;
    for (const file of [
      "0.png",
      "-1.png",
      "1e3.png",
      "99999999999.png",
      "1.svg",
      "..%2F1.png",
      "%00.png",
      `${"9".repeat(5000)}.png`,
    ])
      await expectRefused(`${base}/${file}${query}`);
    for (const target of ["-1", "1e9", "abc", "123456789", "", "7500.5", "%F0%9F%92%B8"]) {
      const copy = new URL(url);
      copy.searchParams.set("target", target);
      await expectRefused(copy.toString());
    }
    for (const lang of ["", "de-DE", "en-CA\u0000"]) {
      const copy = new URL(url);
      copy.searchParams.set("lang", lang);
      await expectRefused(copy.toString());
    }
    const long = new URL(url);
    long.searchParams.set("token", "a".repeat(100_000));
    await expectRefused(long.toString());
    await expectRefused(`${base}/${item.id}.png?target=7500&lang=en-CA&token=x.y`);
  });

  it("an item that is gone is 404 even with a good signature", async () => {
    const item = await createItem({ storeId: (await createStore()).id });
    const url = priceChartImageUrl({
      itemId: item.id,
      targetCents: 1_000,
      locale: "fr-CA",
      expiresAt: inDays(1),
    });
    await db().item.delete({ where: { id: item.id } });
    await expectRefused(url);
  });
});

describe("readPriceHistories", () => {
  it("reads several items' histories at once, each as readPriceHistory reads it alone", async () => {
    const changed = await itemWithHistory();
    const steady = await createItem({ storeId: (await createStore()).id, priceCents: 4_999 });
    const now = new Date();
    const histories = await readPriceHistories(
      db(),
      [changed.id, steady.id, changed.id, 2_000_000_000],
      now,
    );
    expect([...histories.keys()].sort()).toEqual([changed.id, steady.id].sort());
    expect(histories.get(changed.id)).toEqual(await readPriceHistory(db(), changed.id, now));
    expect(histories.get(steady.id)).toEqual(await readPriceHistory(db(), steady.id, now));
    expect(histories.get(changed.id)!.points.map((point) => point.priceCents)).toEqual([
      12_000, 9_500, 8_000,
    ]);
    expect((await readPriceHistories(db(), [], now)).size).toBe(0);
  });
});

describe("the watch emails' chart", () => {
  it("the set email carries the signed chart of the item with the watch's max price, which the route draws", async () => {
    const buyer = await createBuyer();
    const item = await watchableItem(10_000);
    const { status } = await setWatch(buyer.token, {
      catalog_item_id: String(item.id),
      max_price: 80,
      max_total: 100,
    });
    expect(status).toBe(201);
    const email = await db().emailMessage.findFirstOrThrow({
      where: { to: buyer.person.email, template: "price-watch-set" },
    });
    const { chart } = (email.props as PriceWatchSetProps).item;
    expect(chart!.url).toMatch(
      new RegExp(
        `^${env().PUBLIC_URL}/charts/price-history/${item.id}\\.png\\?target=8000&lang=en-CA&token=`,
      ),
    );
    expect(chart!.alt).toBe(
      `Price history of ${item.title} over the last 90 days, with a line at your price of $80.00`,
    );
    const response = await get(chart!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
  });

  it("priceChartImage: the words in French", () => {
    const image = priceChartImage({
      itemId: 1,
      targetCents: 8_000,
      locale: "fr-CA",
      expiresAt: inDays(1),
      title: "Manteau",
    });
    expect(image.alt.replace(/\u00a0/g, " ")).toBe(
      "Historique du prix de Manteau sur les 90 derniers jours, avec une ligne à votre prix de 80,00 $",
    );
    expect(image.url).toContain("lang=fr-CA");
  });
});
