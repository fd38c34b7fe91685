/**
 * [LANGUAGE] The language of the shopper's pages: the one saved on /account (copied into the `lang`
 * cookie when saved and at every sign-in), else the browser's Accept-Language. Chromium asks for
 * en-US unless a context says otherwise.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { ops } from "../fixtures/api-client";
import { signInNewShopper, unique } from "../fixtures/shoppers";

const newPerson = () => {
  const email = `lang-${unique()}@example.ca`;
  const password = "sandbox password 1";
  ops("person:create", "--email", email, "--password", password, "--verified", "--name", "Léa");
  return { email, password };
};

/** Signs in through the form whatever language it shows (its fields by type, its one submit button). */
const signInAnyLanguage = async (page: Page, email: string, password: string, path: string) => {
  await page.goto(`/sign-in?callbackUrl=${path}`);
  await page.locator("input[type=email]").fill(email);
  await page.locator("input[type=password]").fill(password);
  await page.locator("form button[type=submit]").click();
  // The path itself: the sign-in page's own URL ends with callbackUrl=<path>.
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
};

const saveLanguage = async (page: Page, language: "en" | "fr", button: string) => {
  await page.locator("#field-language").selectOption(language);
  await page.getByRole("button", { name: button }).click();
};

const freshPage = async (browser: Browser, locale?: string) =>
  (await browser.newContext(locale ? { locale } : {})).newPage();

test.describe("[LANGUAGE] saved language and Accept-Language", () => {
  test("saving Français turns the account pages and sign-in French, after a reload and on a fresh browser after signing in", async ({
    page,
    browser,
  }) => {
    const { email, password } = await signInNewShopper(page, {
      prefix: "lang",
      name: "Léa",
      path: "/account",
    });
    await expect(page.getByRole("heading", { name: "Profile and sizes" })).toBeVisible();
    await saveLanguage(page, "fr", "Save language");
    await expect(page.getByText("Votre langue est enregistrée.")).toBeVisible();

    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
    await expect(page.getByRole("heading", { name: "Profil et tailles" })).toBeVisible();
    await expect(page.locator("#field-language")).toHaveValue("fr");
    await page.getByRole("link", { name: "Limites de dépenses" }).click();
    await expect(page.getByRole("heading", { name: "Limites de dépenses" })).toBeVisible();
    await expect(page.getByTestId("saved-limits")).toContainText("Non fixée");
    await page.getByRole("link", { name: "Adresse de livraison" }).click();
    await expect(page.getByLabel("Province ou territoire")).toBeVisible();
    // Signed out, this browser keeps the language: sign-in is French.
    await page.getByRole("button", { name: "Se déconnecter" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Se connecter" })).toBeVisible();

    // A fresh browser (Accept-Language en-US) gets English until the person signs in.
    const fresh = await freshPage(browser);
    await fresh.goto("/sign-in");
    await expect(fresh.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await signInAnyLanguage(fresh, email, password, "/account");
    await expect(fresh.getByRole("heading", { name: "Profil et tailles" })).toBeVisible();
    await fresh.goto("/account/card");
    await expect(fresh.getByRole("heading", { name: "Carte enregistrée" })).toBeVisible();
    await fresh.getByRole("button", { name: "Se déconnecter" }).click();
    await expect(fresh).toHaveURL(/\/$/);
    await fresh.goto("/sign-in");
    await expect(fresh.getByRole("heading", { name: "Se connecter" })).toBeVisible();
    await fresh.context().close();
  });

  test("a French browser without a saved language gets French pages", async ({ browser }) => {
    const { email, password } = newPerson();
    const page = await freshPage(browser, "fr-CA");
    await page.goto("/sign-in");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
    await expect(page.getByRole("heading", { name: "Se connecter" })).toBeVisible();
    await expect(page.getByLabel("Mot de passe")).toBeVisible();
    await page.getByLabel("Courriel").fill(email);
    await page.getByLabel("Mot de passe").fill("not the password");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(
      page.getByText("Ce courriel et ce mot de passe ne correspondent à aucun compte."),
    ).toBeVisible();
    await page.getByLabel("Mot de passe").fill(password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL((url) => url.pathname === "/account", { timeout: 15_000 });
    await expect(page.getByRole("heading", { name: "Profil et tailles" })).toBeVisible();
    // Nothing saved: the form offers the browser's language.
    await expect(page.locator("#field-language")).toHaveValue("fr");
    await expect(page.locator("#field-language")).toHaveAttribute("data-saved", "");
    // The server's refusals (English for partners) read in French on the page.
    await page.goto("/account/address");
    await page.getByRole("button", { name: "Enregistrer l’adresse" }).click();
    await expect(page.getByText("Veuillez corriger les champs en surbrillance.")).toBeVisible();
    await expect(page.locator("#field-name-error")).toHaveText("est obligatoire");
    await page.getByLabel("Nom complet").fill("Léa Roy");
    await page.getByLabel("Adresse", { exact: true }).fill("1 Rue Saint-Paul");
    await page.getByLabel("Ville").fill("Montréal");
    await page.getByLabel("Province ou territoire").selectOption("QC");
    await page.getByLabel("Code postal").fill("M5V 3L9");
    await page.getByRole("button", { name: "Enregistrer l’adresse" }).click();
    await expect(page.locator("#field-postal_code-error")).toHaveText(
      "n’est pas un code postal de la province : Québec",
    );
    await page.context().close();
  });

  test("a saved English beats a French browser", async ({ browser }) => {
    const { email, password } = newPerson();
    const page = await freshPage(browser, "fr-CA");
    await signInAnyLanguage(page, email, password, "/account");
    await expect(page.getByRole("heading", { name: "Profil et tailles" })).toBeVisible();
    await saveLanguage(page, "en", "Enregistrer la langue");
    await expect(page.getByText("Your language is saved.")).toBeVisible();
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en-CA");
    await expect(page.getByRole("heading", { name: "Profile and sizes" })).toBeVisible();
    await page.context().close();

    // Another French browser: English once the person signs in.
    const other = await freshPage(browser, "fr-CA");
    await other.goto("/sign-in");
    await expect(other.getByRole("heading", { name: "Se connecter" })).toBeVisible();
    await signInAnyLanguage(other, email, password, "/account/limits");
    await expect(other.getByRole("heading", { name: "Spending limits" })).toBeVisible();
    await other.context().close();
  });
});
