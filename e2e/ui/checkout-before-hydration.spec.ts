/**
 * [CHECKOUT] The sandbox's test-card form on the hosted checkout keeps what was typed before React
 * hydrated the page (uncontrolled inputs, read at submit), and its Pay button stays disabled until
 * then: in the server's HTML (JavaScript off) it cannot be submitted at all.
 */
import { expect, test } from "../fixtures/api-client";
import { createCheckout } from "../fixtures/checkout";

test.describe("[CHECKOUT] the sandbox card form before hydration", () => {
  test("the Pay button is disabled in the server's HTML", async ({ partner, browser, baseURL }) => {
    const { checkout } = await createCheckout(partner.api, 9);
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(new URL(checkout.checkout_url).pathname);
      await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeDisabled();
    } finally {
      await context.close();
    }
  });

  test("a card typed while the page's JavaScript is still loading is kept through hydration and pays", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 10);
    // Hold the page's JavaScript until the card is typed: React hydrates only afterwards.
    let release = () => undefined as void;
    const typed = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.startsWith("/_next/static/") && url.pathname.endsWith(".js"),
      async (route) => {
        await typed;
        await route.continue();
      },
    );
    await page.goto(new URL(checkout.checkout_url).pathname, { waitUntil: "commit" });
    const pay = page.getByRole("button", { name: /^Pay \$/ });
    await expect(pay).toBeDisabled();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Month").fill("12");
    await page.getByLabel("Year").fill("2034");
    await page.getByLabel("CVC").fill("123");
    await page.getByLabel(/I accept the terms/).check();
    release();
    await expect(pay).toBeEnabled({ timeout: 30_000 });
    await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
    await pay.click();
    await expect(page.getByRole("heading", { name: /Paid/ })).toBeVisible();
  });
});
