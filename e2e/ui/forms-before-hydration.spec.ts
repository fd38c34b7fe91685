/**
 * [FORMS] Forms whose submit runs in JavaScript (sign-in, sign-up, spending limits, the saved card,
 * the dashboard's action forms) keep their submit button disabled in the server's HTML. Clicked before
 * React hydrated the page, such a form was submitted by the browser itself as a GET, with the card
 * number and CVC in the URL (seen in a CI trace of the purchase spec). With JavaScript off the page
 * is exactly that server HTML, so nothing can submit it; once hydrated the button works.
 */
import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { signInNewShopper } from "../fixtures/shoppers";

/** A page of a context without JavaScript, with the cookies of `storageState` (signed in) or none. */
const serverHtmlPage = async (
  browser: Browser,
  baseURL: string,
  storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>,
) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, storageState });
  return { page: await context.newPage(), close: () => context.close() };
};

test.describe("[FORMS] a form submitted by JavaScript cannot be submitted before it", () => {
  test("sign-in and sign-up: disabled in the server's HTML, Enter in the password submits nothing, enabled once hydrated", async ({
    browser,
    baseURL,
    page,
  }) => {
    const plain = await serverHtmlPage(browser, baseURL!);
    try {
      for (const [path, button] of [
        ["/sign-in", "Sign in"],
        ["/sign-up", "Create account"],
      ] as const) {
        await plain.page.goto(path);
        await expect(plain.page.getByRole("button", { name: button })).toBeDisabled();
      }
      await plain.page.goto("/sign-in");
      await plain.page.getByLabel("Email").fill("someone@example.ca");
      await plain.page.getByLabel("Password").fill("a secret password");
      await plain.page.getByLabel("Password").press("Enter");
      await expect(plain.page).toHaveURL(/\/sign-in$/);
    } finally {
      await plain.close();
    }
    await page.goto("/sign-in");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  });

  test("the saved card, the spending limits and the dashboard's action forms: disabled in the server's HTML, the card number never in a URL", async ({
    browser,
    baseURL,
    page,
  }) => {
    await signInNewShopper(page, { prefix: "hydration", name: "Ines", path: "/account/card" });
    await expect(page.getByRole("button", { name: "Save card" })).toBeEnabled();
    const signedIn = await serverHtmlPage(browser, baseURL!, await page.context().storageState());
    try {
      await signedIn.page.goto("/account/card");
      await expect(signedIn.page.getByRole("button", { name: "Save card" })).toBeDisabled();
      await signedIn.page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await signedIn.page.getByLabel("CVC").press("Enter");
      await expect(signedIn.page).toHaveURL(/\/account\/card$/);
      await signedIn.page.goto("/account/limits");
      await expect(signedIn.page.getByRole("button", { name: "Save limits" })).toBeDisabled();
      await signedIn.page.goto("/account/address");
      await expect(signedIn.page.getByRole("button", { name: "Save address" })).toBeDisabled();
    } finally {
      await signedIn.close();
    }
  });
});
