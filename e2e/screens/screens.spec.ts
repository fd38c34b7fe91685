/**
 * `npm run screens`: the screenshots of docs/screens/ (linked from the README), taken from the
 * running sandbox service as a shopper meets it: the purchase copy email an assistant's purchase
 * sends, the cancel page its link opens, and /account/purchases, each on a phone (360 px) and a
 * desktop (1280 px), in English (an Ontario shopper) and French (a Quebec shopper who saved
 * Français). Run only by `npm run screens` (the `screens` project exists when SCREENS=1); the images
 * are for review, not compared pixel by pixel.
 */
import path from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import { ops } from "../fixtures/api-client";
import { signIn, unique } from "../fixtures/shoppers";

const out = path.resolve(__dirname, "..", "..", "docs", "screens");

const views = [
  { name: "phone", viewport: { width: 360, height: 740 } },
  { name: "desktop", viewport: { width: 1280, height: 800 } },
] as const;

const shoppers = {
  en: {
    locale: "en-CA",
    address: {
      name: "Ana Tremblay",
      line1: "100 Queen St W",
      city: "Toronto",
      province: "ON",
      postal_code: "M5H 2N2",
      country: "CA",
    },
  },
  fr: {
    locale: "fr-CA",
    address: {
      name: "Élise Gagnon",
      line1: "1200 rue Sainte-Catherine O",
      city: "Montréal",
      province: "QC",
      postal_code: "H3B 1K9",
      country: "CA",
    },
  },
} as const;

const newContext = (
  browser: Browser,
  baseURL: string,
  locale: string,
  view: (typeof views)[number],
) => browser.newContext({ baseURL, locale, viewport: view.viewport });

for (const [language, shopper] of Object.entries(shoppers)) {
  test(`screens in ${language}`, async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const email = `screens-${language}-${unique()}@example.ca`;
    const password = "sandbox password 1";
    ops(
      "person:create",
      "--email",
      email,
      "--password",
      password,
      "--verified",
      "--name",
      shopper.address.name,
      "--language",
      language,
      "--card",
      "4242424242424242",
      "--address-json",
      JSON.stringify(shopper.address),
    );
    const purchase = ops(
      "purchase:create-sandbox",
      "--email",
      email,
      "--name",
      "Errand Assistant",
    ) as {
      cancel_url: string;
    };
    let html = "";
    await expect(() => {
      const { messages } = ops("mail:list", "--to", email) as {
        messages: { id: string; template?: string; subject: string | null; status: string }[];
      };
      const copy = messages.find((message) => message.status === "sent");
      expect(copy).toBeTruthy();
      html = (ops("mail:show", copy!.id) as { html: string }).html;
    }).toPass({ timeout: 30_000 });

    for (const view of views) {
      const context = await newContext(browser, baseURL!, shopper.locale, view);
      const page = await context.newPage();
      const shot = (name: string) =>
        page.screenshot({
          path: path.join(out, `${name}-${language}-${view.name}.png`),
          fullPage: true,
        });

      await page.setContent(html, { waitUntil: "load" });
      await shot("purchase-copy-email");

      const cancel = new URL(purchase.cancel_url);
      await page.goto(`${cancel.pathname}${cancel.search}`);
      await expect(page.locator("h1")).toBeVisible();
      await shot("cancel-page");

      await page.goto("/sign-in?callbackUrl=/account/purchases");
      await signIn(page, email, password);
      await expect(page).toHaveURL(/\/account\/purchases$/, { timeout: 15_000 });
      await expect(page.locator(".bought-item-title, [data-purchase-id]").first()).toBeVisible();
      await shot("account-purchases");
      await context.close();
    }
  });
}
