/**
 * [ACCOUNT] Every account page on a 375 px phone, in Debian chromium, for a person with a linked
 * assistant (so /account/apps lists one): nothing is wider than the screen, so nothing scrolls
 * sideways (a shopper audit found /account/apps 467 px wide and every account page 6 px over).
 */
import { expect, test } from "@playwright/test";
import { linkAssistant, newWatcher } from "../fixtures/price-watches";
import { accountPages, signIn } from "../fixtures/shoppers";

test("[ACCOUNT] every account page fits a 375 px phone", async ({
  browser,
  baseURL,
  playwright,
}) => {
  const person = newWatcher("Noor");
  const assistant = await linkAssistant(playwright, baseURL!, person);
  const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 } });
  try {
    const page = await context.newPage();
    await page.goto("/sign-in?callbackUrl=/account");
    await signIn(page, person.email, person.password);
    await page.waitForURL((url) => url.pathname === "/account", { timeout: 15_000 });
    const tooWide: string[] = [];
    for (const path of accountPages) {
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
      if (width > 375) tooWide.push(`${path}: ${width} px`);
    }
    expect(tooWide).toEqual([]);
  } finally {
    await context.close();
    await assistant.dispose();
  }
});
