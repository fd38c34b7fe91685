/**
 * [KEYBOARD] A shopper who uses only the keyboard: these specs never click. They press Tab,
 * Shift+Tab, the arrow keys, Space and Enter, and type. The hosted checkout is paid with the
 * sandbox card, and an app is approved (ticking an opt-in permission) on the consent page, in
 * English and in French. Every control focus reaches shows a visible focus ring.
 */
import * as oauth from "oauth4webapi";
import { expect, type Page } from "@playwright/test";
import { ops, test } from "../fixtures/api-client";
import { createCheckout } from "../fixtures/checkout";
import { signIn } from "../fixtures/linking";
import { unique } from "../fixtures/shoppers";

/** What has focus: its tag, name, role and accessible text, and whether a focus ring shows. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const hasRing = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    return {
      tag: element.tagName.toLowerCase(),
      name: element.getAttribute("name"),
      value: element.getAttribute("value"),
      role: element.getAttribute("role"),
      text: (element.textContent ?? "").trim(),
      hasRing,
    };
  });

type Focused = NonNullable<Awaited<ReturnType<typeof focused>>>;

/** Presses Tab until `isTarget` holds for the focused control (at most `limit` presses); each control passed must show a ring. */
const tabTo = async (page: Page, isTarget: (element: Focused) => boolean, limit = 40) => {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press("Tab");
    const element = await focused(page);
    if (!element) continue;
    expect(element.hasRing, `focus ring on ${JSON.stringify(element)}`).toBe(true);
    if (isTarget(element)) return element;
  }
  throw new Error(`Tab did not reach the control within ${limit} presses`);
};

test.describe("[KEYBOARD] the hosted checkout without a mouse", () => {
  test("Tab to the card form, type the sandbox card, tick the terms with Space, pay with Enter", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 11);
    await page.goto(new URL(checkout.checkout_url).pathname);
    // The pay button waits for hydration (see checkout-before-hydration.spec.ts).
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeEnabled();

    // The method tabs: Tab reaches the chosen one; the arrow keys switch and come back.
    await tabTo(page, (element) => element.role === "tab");
    await expect(page.getByRole("tab", { name: "Card" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Link" })).toBeFocused();
    await expect(page.getByRole("tab", { name: "Link" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByLabel("Link email")).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("tab", { name: "Card" })).toHaveAttribute("aria-selected", "true");

    await tabTo(page, (element) => element.name === "number", 3);
    await page.keyboard.type("4242 4242 4242 4242");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Month")).toBeFocused();
    await page.keyboard.type("12");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Year")).toBeFocused();
    await page.keyboard.type("2034");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("CVC")).toBeFocused();
    await page.keyboard.type("123");
    await tabTo(page, (element) => element.name === "accept_terms", 2);
    await page.keyboard.press("Space");
    await expect(page.getByLabel(/I accept the terms/)).toBeChecked();
    const pay = await tabTo(page, (element) => element.tag === "button", 2);
    expect(pay.text).toMatch(/^Pay \$/);
    await page.keyboard.press("Enter");

    const paid = page.getByRole("heading", { name: "Paid — thank you!" });
    await expect(paid).toBeVisible();
    // The form the keyboard was in is gone: focus lands on what happened, not the top of the page.
    await expect(paid).toBeFocused();
    await expect(page.getByTestId("order-number")).toHaveText(/^SO-[0-9A-Z]{8}$/);
    const status = await (
      await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)
    ).json();
    expect(status.status).toBe("paid");
  });

  test("the shipping choice is a radio group: the arrow keys choose another option and the totals follow", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 12);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeEnabled();
    const before = await page.getByTestId("grand-total").textContent();
    const radio = await tabTo(page, (element) => element.name === "option");
    await expect(page.locator("input[name=option]:checked").first()).toHaveValue(radio.value!);
    await page.keyboard.press("ArrowDown");
    await expect(page.getByTestId("grand-total")).not.toHaveText(before!);
    await expect(page.locator("input[name=option]:checked").first()).not.toHaveValue(radio.value!);
  });
});

const redirectUri = "https://partner.example.com/callback";

const consentTexts = {
  "en-CA": {
    heading: "Keyboard Planner wants to connect to your account",
    alerts: /set price alerts/,
  },
  "fr-CA": {
    heading: "Keyboard Planner veut se connecter à votre compte",
    alerts: /créer des alertes de prix/,
  },
} as const;

test.describe("[KEYBOARD] the consent page without a mouse", () => {
  for (const language of ["en-CA", "fr-CA"] as const) {
    test(`${language}: Tab to the opt-in permission, tick it with Space, Tab to Approve and press Enter`, async ({
      browser,
      baseURL,
      request,
    }) => {
      const email = `keys-${unique()}@example.ca`;
      const password = "sandbox password 1";
      ops("person:create", "--email", email, "--password", password, "--name", "Kim", "--verified");
      const client = ops(
        "client:create",
        "--name",
        "Keyboard Planner",
        "--scopes",
        "catalog:read profile:read alerts:write",
        "--redirect-uri",
        redirectUri,
        "--linking",
      );
      const verifier = oauth.generateRandomCodeVerifier();
      const query = new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: redirectUri,
        scope: "catalog:read profile:read alerts:write",
        state: "keyboard-state",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      });
      const context = await browser.newContext({ baseURL, locale: language });
      try {
        const page = await context.newPage();
        // Signed in over HTTP on the page's own cookies: the sign-in page is not what this tests.
        await signIn(page.request, email, password);
        await page.route("https://partner.example.com/**", (route) =>
          route.fulfill({ contentType: "text/html", body: "<h1>Partner app</h1>" }),
        );
        await page.goto(`/oauth/authorize?${query}`);
        const text = consentTexts[language];
        await expect(page.getByRole("heading", { name: text.heading, exact: true })).toBeVisible();

        // Focus order: the opt-in checkbox, then Deny, then Approve.
        await tabTo(page, (element) => element.name === "grant_scope");
        const alerts = page.getByRole("checkbox", { name: text.alerts });
        await expect(alerts).toBeFocused();
        await page.keyboard.press("Space");
        await expect(alerts).toBeChecked();
        const deny = await tabTo(page, (element) => element.tag === "button", 1);
        expect(deny.value).toBe("deny");
        const approve = await tabTo(page, (element) => element.tag === "button", 1);
        expect(approve.value).toBe("approve");
        await page.keyboard.press("Enter");

        await expect(page).toHaveURL(/^https:\/\/partner\.example\.com\/callback\?/);
        const callback = new URL(page.url());
        expect(callback.searchParams.get("state")).toBe("keyboard-state");
        const exchange = await request.post("/oauth/token", {
          form: {
            grant_type: "authorization_code",
            code: callback.searchParams.get("code")!,
            code_verifier: verifier,
            redirect_uri: redirectUri,
            client_id: client.client_id,
            client_secret: client.client_secret,
          },
        });
        expect((await exchange.json()).scope).toBe("catalog:read profile:read alerts:write");
      } finally {
        await context.close();
      }
    });
  }
});
