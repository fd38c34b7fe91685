/**
 * [EMAILS] every email's HTML in Debian chromium at phone width (360 px), in each language it is
 * written in: nothing wider than the screen, and a screenshot attached to the report for review
 * (not compared pixel by pixel). The text versions are checked by emails/emails.test.ts.
 */
import { expect, test } from "@playwright/test";
import { emailPreviews, renderEmail } from "../../emails/render";

for (const { name, locale, props } of emailPreviews()) {
  test(`${name} (${locale}) fits a phone`, async ({ page }, testInfo) => {
    const email = await renderEmail(name, props);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.setContent(email.html, { waitUntil: "domcontentloaded" });
    await expect(page.locator("h1")).toBeVisible();
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width, "no sideways scrolling at 360 px").toBeLessThanOrEqual(360);
    await testInfo.attach(`${name}-${locale}-phone`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
  });
}
