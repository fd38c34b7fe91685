/**
 * [WATCHES] The price watch cancel page (the set email's link) in Debian chromium, in English and
 * in French (the browser's Accept-Language), at desktop (1280x800) and phone (360x740) widths: each
 * state says what happened and shows the watched item (an active watch, cancelled from the page,
 * one that bought, and a tampered link), and on a phone nothing is wider than the screen.
 */
import type { Browser, TestInfo } from "@playwright/test";
import { expect, test } from "../fixtures/api-client";
import { waitForEmail } from "../fixtures/checkout";
import { directItem, linkAssistant, newWatcher } from "../fixtures/price-watches";
import { snap } from "../fixtures/shoppers";

const screens = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 360, height: 740 } },
] as const;
const languages = ["en-CA", "fr-CA"] as const;

type Expected = Record<(typeof languages)[number], { state: string; heading: string }>;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type Fixtures = Parameters<Parameters<typeof test>[2]>[0];
type Setup = Pick<Fixtures, "playwright" | "baseURL" | "partner">;

/** A person, their linked assistant and a watch it set on the item of `page`; the watch and the path of the set email's cancel link. */
const watchWithLink = async (
  { playwright, baseURL, partner }: Setup,
  name: string,
  page: number,
) => {
  const person = newWatcher(name);
  const { picked, target, title } = await directItem(partner.api, page);
  const assistant = await linkAssistant(playwright, baseURL!, person);
  const set = await assistant.post("/api/v1/price-watches", {
    data: {
      catalog_item_id: String(picked.item_id),
      size: picked.size ?? null,
      max_price: target,
      max_total: 1000,
      days: 3,
    },
  });
  expect(set.status()).toBe(201);
  const watch = await set.json();
  const mail = await waitForEmail(
    partner.api,
    person.email,
    new RegExp(`set a price watch for you: ${escape(title)}`),
  );
  expect(mail.text).toContain(title);
  const link = mail.text.match(/https?:\/\/\S+?\/price-watches\/\d+\/cancel\?token=[^\s\]]+/);
  expect(link, "the set email's cancel link").not.toBeNull();
  const url = new URL(link![0]);
  expect(url.pathname).toBe(`/price-watches/${watch.price_watch_id}/cancel`);
  return { person, assistant, picked, target, title, watch, path: `${url.pathname}${url.search}` };
};

/** Opens `path` in each language at each width: the state's text, the heading, and no sideways scrolling on a phone. */
const expectEverywhere = async (
  browser: Browser,
  baseURL: string,
  testInfo: TestInfo,
  options: { path: string; expected: Expected; title?: string; name: string },
) => {
  for (const locale of languages)
    for (const screen of screens) {
      const context = await browser.newContext({ baseURL, locale, viewport: screen.viewport });
      const page = await context.newPage();
      await page.goto(options.path);
      const expected = options.expected[locale];
      await expect(page.getByTestId("watch-state")).toContainText(expected.state);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(expected.heading);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      if (options.title)
        await expect(page.locator(".watched-item-title")).toHaveText(options.title);
      // One clear primary action.
      await expect(page.locator(".button.primary")).toHaveCount(1);
      if (screen.name === "phone")
        expect(
          await page.evaluate(() => document.scrollingElement!.scrollWidth),
          `${options.name} in ${locale} is no wider than the phone`,
        ).toBeLessThanOrEqual(360);
      await snap(page, testInfo, `${options.name}-${locale}-${screen.name}`);
      await context.close();
    }
};

test.describe("[WATCHES] the price watch cancel page", () => {
  test.describe.configure({ timeout: 180_000 });

  test("an active watch: the item, the limits, one Cancel button; cancelling shows it cancelled", async ({
    browser,
    baseURL,
    playwright,
    partner,
  }, testInfo) => {
    const { path, title, watch, assistant } = await watchWithLink(
      { playwright, baseURL, partner },
      "Noor",
      3,
    );
    const heading = {
      "en-CA": { heading: `Price watch on ${title}` },
      "fr-CA": { heading: `Surveillance de prix sur ${title}` },
    };
    await expectEverywhere(browser, baseURL!, testInfo, {
      name: "active",
      path,
      title,
      expected: {
        "en-CA": { ...heading["en-CA"], state: "This price watch is on" },
        "fr-CA": { ...heading["fr-CA"], state: "Cette surveillance de prix est active" },
      },
    });

    // The person cancels from the page (English, phone width): the page then says it is cancelled.
    const context = await browser.newContext({
      baseURL,
      locale: "en-CA",
      viewport: screens[1].viewport,
    });
    const page = await context.newPage();
    await page.goto(path);
    await expect(page.getByText("Times are in Eastern Time.")).toBeVisible();
    await page.getByRole("button", { name: "Cancel this price watch" }).click();
    await expect(page.getByTestId("watch-state")).toContainText("This price watch is cancelled");
    await expect(page.getByRole("button", { name: "Cancel this price watch" })).toHaveCount(0);
    await context.close();
    expect(
      (await (await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)).json()).status,
    ).toBe("cancelled");

    await expectEverywhere(browser, baseURL!, testInfo, {
      name: "cancelled",
      path,
      title,
      expected: {
        "en-CA": { ...heading["en-CA"], state: "This price watch is cancelled" },
        "fr-CA": { ...heading["fr-CA"], state: "Cette surveillance de prix est annulée" },
      },
    });
    await assistant.dispose();
  });

  test("a watch that bought: cancel the purchase from its own email", async ({
    browser,
    baseURL,
    playwright,
    partner,
  }, testInfo) => {
    const { path, title, watch, picked, target, assistant } = await watchWithLink(
      { playwright, baseURL, partner },
      "Sami",
      4,
    );
    const drop = await partner.api.post(`/api/v1/sandbox/items/${picked.item_id}/price`, {
      data: { price: target },
    });
    expect(drop.status()).toBe(200);
    await expect
      .poll(
        async () =>
          (await (await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)).json())
            .status,
        { timeout: 20_000 },
      )
      .toBe("fulfilled");
    await expectEverywhere(browser, baseURL!, testInfo, {
      name: "fulfilled",
      path,
      title,
      expected: {
        "en-CA": { heading: `Price watch on ${title}`, state: "This price watch bought the item" },
        "fr-CA": {
          heading: `Surveillance de prix sur ${title}`,
          state: "Cette surveillance de prix a acheté",
        },
      },
    });
    await assistant.dispose();
  });

  test("a tampered or foreign link says so and what to do", async ({
    browser,
    baseURL,
    playwright,
    partner,
  }, testInfo) => {
    const { path, watch, assistant } = await watchWithLink(
      { playwright, baseURL, partner },
      "Ravi",
      5,
    );
    const token = new URL(path, baseURL).searchParams.get("token")!;
    // One character of the signature changed (not the last: its low bits may be padding).
    const changed = token.at(-5) === "A" ? "B" : "A";
    const tampered = `${token.slice(0, -5)}${changed}${token.slice(-4)}`;
    const expected: Expected = {
      "en-CA": {
        heading: "This link is not valid",
        state: "Use the cancel link in the latest email",
      },
      "fr-CA": { heading: "Ce lien n’est pas valide", state: "Utilisez le lien d’annulation" },
    };
    for (const [name, badPath] of [
      [
        "tampered",
        `/price-watches/${watch.price_watch_id}/cancel?token=${encodeURIComponent(tampered)}`,
      ],
      [
        "other-watch",
        `/price-watches/${watch.price_watch_id + 1}/cancel?token=${encodeURIComponent(token)}`,
      ],
    ] as const)
      await expectEverywhere(browser, baseURL!, testInfo, { name, path: badPath, expected });
    await assistant.dispose();
  });
});
