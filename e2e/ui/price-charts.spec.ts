/**
 * [CHARTS] The dashboard's watches and alerts pages show each item's price chart with JavaScript
 * off (ADR 0119): the service draws the SVG, so the first HTML already holds it, an image to
 * assistive technology with its words (price, target, lowest). An assistant linked with
 * purchase:write and alerts:write sets a watch (the store then moves the item's price, still above
 * the target: nothing buys) and an alert, and the person opens both pages in a browser context
 * that runs no script.
 */
import { expect, test } from "../fixtures/api-client";
import { directItem, linkAssistant, newWatcher } from "../fixtures/price-watches";
import { signedInWithoutScript, snap } from "../fixtures/shoppers";
import { formatMoney } from "../../server/core/locale";
import { parseCents } from "../../server/core/money";

const money = (amount: string) => formatMoney(parseCents(amount), "en-CA");
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test.describe("[CHARTS] price charts", () => {
  test("the watches and alerts pages show the item's chart with its target, JavaScript off", async ({
    browser,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    const person = newWatcher("Quinn");
    const { picked, price, target } = await directItem(partner.api, 8); // a page no other spec buys from
    const assistant = await linkAssistant(playwright, baseURL!, person, ["alerts:write"]);
    const watch = await assistant.post("/api/v1/price-watches", {
      data: {
        catalog_item_id: String(picked.item_id),
        size: picked.size ?? null,
        max_price: target,
        max_total: 1000,
        days: 3,
      },
    });
    expect(watch.status()).toBe(201);
    // An alert on the first item of a store that offers them (others refuse with store_alerts_unavailable).
    const items = (
      (await (await assistant.get("/api/v1/products?per_page=48&sort=price_desc")).json()) as {
        data: { id: number; price: { amount: string } }[];
      }
    ).data;
    let alertTarget: string | undefined;
    for (const item of items) {
      const wanted = ((parseCents(item.price.amount) - 100) / 100).toFixed(2);
      const alert = await assistant.post("/api/v1/price-alerts", {
        data: { catalog_item_id: String(item.id), target_price: wanted },
      });
      const body = await alert.json();
      if (alert.status() === 409 && body.error.code === "store_alerts_unavailable") continue;
      expect(alert.status(), JSON.stringify(body)).toBe(201);
      alertTarget = wanted;
      break;
    }
    expect(alertTarget).toBeDefined();
    // A small drop, still above the target: the chart has a step, nothing buys or emails.
    const lower = ((Math.round(Number(price) * 100) - 100) / 100).toFixed(2);
    const drop = await partner.api.post(`/api/v1/sandbox/items/${picked.item_id}/price`, {
      data: { price: lower },
    });
    expect(drop.status()).toBe(200);

    // Signed in over HTTP, then a browser context with the session and no script at all.
    const context = await signedInWithoutScript({ browser, playwright, baseURL: baseURL! }, person);
    const page = await context.newPage();
    const words = new RegExp(
      `Price from ${escaped(money(price))} to ${escaped(money(lower))} since .+; ` +
        `target ${escaped(money(target))}; lowest ${escaped(money(lower))}`,
    );

    await page.goto("/account/watches");
    const watchChart = page.getByTestId("watch").getByTestId("price-chart").locator("svg");
    await expect(watchChart).toHaveCount(1);
    await expect(watchChart).toHaveAttribute("role", "img");
    await expect(watchChart).toHaveAttribute("aria-label", words);
    await expect(watchChart.locator("title")).toHaveText(/^Price history of /);
    await expect(watchChart).toBeVisible();
    await expect(watchChart.getByText(`Target ${money(target)}`)).toBeVisible();
    await expect(watchChart.getByText(`Lowest ${money(lower)}`)).toBeVisible();
    await expect(page.getByRole("img", { name: words })).toBeVisible();
    await snap(page, testInfo, "watches with JavaScript off");

    await page.goto("/account/alerts");
    const alertChart = page.getByTestId("price-alert").getByTestId("price-chart").locator("svg");
    await expect(alertChart).toHaveCount(1);
    await expect(alertChart).toHaveAttribute(
      "aria-label",
      new RegExp(`^Price .+; target ${escaped(money(alertTarget!))}`),
    );
    await expect(alertChart).toBeVisible();
    await expect(alertChart.getByText(`Target ${money(alertTarget!)}`)).toBeVisible();
    await snap(page, testInfo, "alerts with JavaScript off");
    await context.close();
  });
});
