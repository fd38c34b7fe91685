/**
 * [FORMS] What a person types while the page is still the server's HTML survives hydration and is
 * what the form submits. A CI run of the purchase spec typed the card number and CVC before React
 * hydrated /account/card: hydration wiped them (controlled inputs whose state started empty) and
 * the button, enabled once hydrated, submitted an empty card ("must be 12 to 19 digits").
 *
 * Each test holds the page's JavaScript chunks back on purpose, fills the form in the server's HTML,
 * then lets the scripts through, waits for the submit button to be enabled (hydrated) and submits.
 * Buttons outside forms (pause, remove card) are likewise disabled until a click on them works.
 */
import { expect, test, type Page } from "@playwright/test";
import { signIn, signInNewShopper, unique } from "../fixtures/shoppers";
import { ops } from "../fixtures/api-client";

/**
 * Holds every request for the app's JavaScript chunks until `release()`: until then the page is its
 * server HTML, with the form's submit button disabled. Stylesheets (in the same folder) go through:
 * the page's inline scripts wait for them, and so would DOMContentLoaded. (Routing also bypasses
 * the HTTP cache, so a chunk loaded by an earlier page cannot slip through.)
 */
const holdScripts = async (page: Page) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  await page.route("**/_next/static/chunks/**", async (route) => {
    if (!new URL(route.request().url()).pathname.endsWith(".js")) return route.continue();
    held++;
    await released;
    await route.continue().catch(() => undefined);
  });
  return {
    /** Lets the scripts load; throws if the page asked for none (then nothing was held back). */
    release: async () => {
      expect(held, "the page's scripts were requested and held").toBeGreaterThan(0);
      release();
      await page.unroute("**/_next/static/chunks/**");
    },
  };
};

/**
 * A new shopper signed in on the dashboard. (signInNewShopper's URL check also matches the sign-in
 * page's own `?callbackUrl=…`: wait for the dashboard's navigation before going on.)
 */
const signedInShopper = async (page: Page, prefix: string) => {
  await signInNewShopper(page, { prefix, name: "Tala", path: "/account/apps" });
  await expect(page.getByRole("link", { name: "Spending limits" })).toBeVisible({
    timeout: 15_000,
  });
};

/** Opens `path` with its scripts held back; the server's HTML shows `button` disabled. */
const openServerHtml = async (page: Page, path: string, button: string) => {
  const scripts = await holdScripts(page);
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await expect(page.getByRole("button", { name: button })).toBeDisabled();
  return scripts;
};

/** Releases the scripts and waits for hydration: the button is enabled and the typed values are still there. */
const hydrate = async (
  page: Page,
  scripts: { release: () => Promise<void> },
  button: string,
  kept: [label: string, value: string][],
) => {
  await scripts.release();
  await expect(page.getByRole("button", { name: button })).toBeEnabled({ timeout: 20_000 });
  for (const [label, value] of kept)
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
};

test.describe("[FORMS] values typed before hydration are kept and submitted", () => {
  test("the sandbox card form: typed in the server's HTML, saved after hydration", async ({
    page,
  }) => {
    await signedInShopper(page, "typed-card");
    const scripts = await openServerHtml(page, "/account/card", "Save card");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry month").fill("12");
    await page.getByLabel("Expiry year").fill("2031");
    await page.getByLabel("CVC").fill("123");
    await hydrate(page, scripts, "Save card", [
      ["Card number", "4242 4242 4242 4242"],
      ["Expiry month", "12"],
      ["Expiry year", "2031"],
      ["CVC", "123"],
    ]);
    await page.getByRole("button", { name: "Save card" }).click();
    await expect(page.getByText("Visa •••• 4242 is saved.")).toBeVisible();
    await expect(page.getByTestId("saved-card")).toContainText("Expires 12/2031");
    // Once saved, the number and CVC leave the form.
    await expect(page.getByLabel("Card number")).toHaveValue("");
    await expect(page.getByLabel("CVC")).toHaveValue("");

    // A button outside a form (Remove card) is disabled too until its click would do something.
    const again = await openServerHtml(page, "/account/card", "Remove card");
    await hydrate(page, again, "Remove card", []);
    await page.getByRole("button", { name: "Remove card" }).click();
    await expect(page.getByText("Your card is removed.")).toBeVisible();
  });

  test("spending limits: typed in the server's HTML, saved after hydration", async ({ page }) => {
    await signedInShopper(page, "typed-limits");
    const scripts = await openServerHtml(page, "/account/limits", "Save limits");
    await page.getByLabel("Limit per order (CAD)").fill("750");
    await page.getByLabel("Limit per rolling 30 days (CAD)").fill("3000.50");
    await hydrate(page, scripts, "Save limits", [
      ["Limit per order (CAD)", "750"],
      ["Limit per rolling 30 days (CAD)", "3000.50"],
    ]);
    await page.getByRole("button", { name: "Save limits" }).click();
    await expect(page.getByText("Your spending limits are saved.")).toBeVisible();
    await expect(page.getByTestId("saved-limits")).toContainText("$750.00");
    await expect(page.getByTestId("saved-limits")).toContainText("$3,000.50");
    await expect(page.getByLabel("Limit per order (CAD)")).toHaveValue("750.00");

    // The pause switch: a click before hydration would be lost (a flaky price-alerts run lost its
    // "Stop alert" click so), so it is disabled until then and works after.
    const again = await openServerHtml(page, "/account/limits", "Pause assistant purchases");
    await hydrate(page, again, "Pause assistant purchases", [["Limit per order (CAD)", "750.00"]]);
    await page.getByRole("button", { name: "Pause assistant purchases" }).click();
    await expect(page.getByText("Assistant purchases are paused.")).toBeVisible();
  });

  test("a dashboard action form (shipping address): typed and chosen in the server's HTML, saved after hydration", async ({
    page,
  }) => {
    await signedInShopper(page, "typed-address");
    const scripts = await openServerHtml(page, "/account/address", "Save address");
    await page.getByLabel("Full name").fill("Ada Tremblay");
    await page.getByLabel("Address", { exact: true }).fill("1 Rue Saint-Paul");
    await page.getByLabel("City").fill("Montréal");
    await page.getByLabel("Province or territory").selectOption("QC");
    await page.getByLabel("Postal code").fill("h2y1c6");
    await hydrate(page, scripts, "Save address", [
      ["Full name", "Ada Tremblay"],
      ["City", "Montréal"],
      ["Province or territory", "QC"],
      ["Postal code", "h2y1c6"],
    ]);
    await page.getByRole("button", { name: "Save address" }).click();
    await expect(
      page.getByText("Saved. Parcels go to 1 Rue Saint-Paul, Montréal QC H2Y 1C6."),
    ).toBeVisible();
  });

  test("sign-in: email and password typed in the server's HTML, signed in after hydration", async ({
    page,
  }) => {
    const email = `typed-signin-${unique()}@example.ca`;
    const password = "sandbox password 1";
    ops("person:create", "--email", email, "--password", password, "--verified", "--name", "Sami");
    const scripts = await openServerHtml(page, "/sign-in?callbackUrl=/account/limits", "Sign in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await hydrate(page, scripts, "Sign in", [
      ["Email", email],
      ["Password", password],
    ]);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/account\/limits$/, { timeout: 15_000 });
  });

  test("sign-up: name, email and password typed in the server's HTML, account created after hydration", async ({
    page,
  }) => {
    const email = `typed-signup-${unique()}@example.ca`;
    const scripts = await openServerHtml(page, "/sign-up", "Create account");
    await page.getByLabel("Name").fill("Nadia Roy");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long sandbox password");
    await hydrate(page, scripts, "Create account", [
      ["Name", "Nadia Roy"],
      ["Email", email],
      ["Password", "a long sandbox password"],
    ]);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/account$/, { timeout: 15_000 });
    await expect(page.getByText("Until then you cannot approve apps")).toBeVisible();
    // And the account is the one typed: its password signs in.
    await page.context().clearCookies();
    await page.goto("/sign-in?callbackUrl=/account");
    await signIn(page, email, "a long sandbox password");
    await expect(page).toHaveURL(/\/account$/, { timeout: 15_000 });
  });
});
