/**
 * [PURCHASES] The whole assistant purchase in Debian chromium: a new shopper signs in, saves a card
 * and spending limits in the dashboard, an assistant registered at /oauth/register/agent gets their
 * consent with purchase:write ticked (oauth4webapi for the code exchange), buys through the API with
 * that token (201 held), and the shopper opens the cancel link from the copy email the service sent
 * over SMTP, cancels on the page, and sees `cancelled` over the API and in the dashboard.
 */
import { randomUUID } from "node:crypto";
import * as oauth from "oauth4webapi";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { shopperAddress, waitForEmail } from "../fixtures/checkout";
import { signInNewShopper, snap } from "../fixtures/shoppers";

const redirectUri = "https://assistant.example.com/callback";
const insecure = { [oauth.allowInsecureRequests]: true };

/** An item of a store that sells to assistants directly (`agent_checkout: direct`), with an available size. */
const directItem = async (api: APIRequestContext) => {
  for (let page = 1; page <= 20; page++) {
    const search = await (
      await api.get(`/api/v1/products?per_page=48&sort=newest&page=${page}`)
    ).json();
    for (const summary of search.data.filter(
      (item: { available: boolean; store: { agent_checkout: string } }) =>
        item.available && item.store.agent_checkout === "direct",
    )) {
      const detail = await (await api.get(`/api/v1/products/${summary.id}`)).json();
      const variant = detail.variants.find(
        (candidate: { available: boolean }) => candidate.available,
      );
      if (variant)
        return {
          item_id: summary.id as number,
          size: (variant.size ?? undefined) as string | undefined,
        };
    }
  }
  throw new Error("no item of a direct store is available in the seeded catalogue");
};

/** Registers an assistant at the agent door and has the signed-in shopper approve it with purchase:write ticked; returns its access token and the authorize path (to ask again). */
const connectAssistant = async (page: Page, anonymous: APIRequestContext, baseURL: string) => {
  const registration = await anonymous.post("/oauth/register/agent", {
    data: { client_name: "Errand Assistant", redirect_uris: [redirectUri] },
  });
  expect(registration.status()).toBe(201);
  const agent = await registration.json();
  const issuer = new URL(baseURL);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: agent.client_id,
    redirect_uri: redirectUri,
    scope: "catalog:read checkout:write address:read purchase:write",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  // The assistant's callback is not reachable here: answer it in the browser and keep the URL.
  await page.route("https://assistant.example.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<h1>Assistant</h1>" }),
  );
  await page.goto(`${url.pathname}${url.search}`);
  const purchase = page.getByRole("checkbox", {
    name: /Let Errand Assistant buy items for me with my saved card/,
  });
  await expect(purchase).not.toBeChecked();
  await purchase.check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/^https:\/\/assistant\.example\.com\/callback\?/);
  const registered: oauth.Client = {
    client_id: agent.client_id,
    token_endpoint_auth_method: "none",
  };
  const params = oauth.validateAuthResponse(as, registered, new URL(page.url()), state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    registered,
    await oauth.authorizationCodeGrantRequest(
      as,
      registered,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      insecure,
    ),
  );
  expect(tokens.scope).toContain("purchase:write");
  return { token: tokens.access_token, authorizePath: `${url.pathname}${url.search}` };
};

test.describe("[PURCHASES] an assistant buys, the person cancels from the email", () => {
  test("card and limits in the dashboard, consent with purchase:write, POST /purchases held, cancel from the emailed link, cancelled in the API and dashboard", async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    const { email } = await signInNewShopper(page, {
      prefix: "assistant-buy",
      name: "Noor",
      path: "/account/card",
      extra: ["--address-json", JSON.stringify(shopperAddress)],
    });

    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry month").fill("12");
    await page.getByLabel("Expiry year").fill("2031");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Save card" }).click();
    await expect(page.getByText("Visa •••• 4242 is saved.")).toBeVisible();

    await page.goto("/account/limits");
    await page.getByLabel("Limit per order (CAD)").fill("5000");
    await page.getByLabel("Limit per rolling 30 days (CAD)").fill("20000.00");
    await page.getByRole("button", { name: "Save limits" }).click();
    await expect(page.getByText("Your spending limits are saved.")).toBeVisible();
    await snap(page, testInfo, "limits-saved");

    const anonymous = await playwright.request.newContext({ baseURL });
    const { token } = await connectAssistant(page, anonymous, baseURL!);
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${token}` },
    });

    // The assistant quotes for the address saved in the account, then buys with the saved card.
    const address = await (await api.get("/api/v1/me/shipping-address")).json();
    const quote = await api.post("/api/v1/checkout/quotes", {
      data: { items: [await directItem(api)], shipping_address: address },
    });
    expect(quote.status()).toBe(201);
    const bought = await api.post("/api/v1/purchases", {
      data: { quote_id: (await quote.json()).quote_id },
      headers: { "Idempotency-Key": randomUUID() },
    });
    const purchase = await bought.json();
    expect(bought.status(), JSON.stringify(purchase)).toBe(201);
    expect(purchase).toMatchObject({ status: "held", error: null });
    expect(purchase.order_number).toMatch(/^SO-/);

    // The copy email really went out over SMTP; its cancel link opens a page that changes nothing until the button.
    const copy = await waitForEmail(
      anonymous,
      email,
      new RegExp(`bought order ${purchase.order_number}`),
    );
    const link = new RegExp(
      `https?://[^\\s"<>]+/purchases/${purchase.purchase_id}/cancel\\?token=[^\\s"<>&]+`,
    ).exec(copy.text)?.[0];
    expect(link, copy.text).toBeTruthy();
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await expect(
      page.getByRole("heading", { name: `Order ${purchase.order_number}` }),
    ).toBeVisible();
    expect((await (await api.get(`/api/v1/purchases/${purchase.purchase_id}`)).json()).status).toBe(
      "held",
    );
    await snap(page, testInfo, "cancel-page");
    await page.getByRole("button", { name: "Cancel this purchase" }).click();
    await expect(page.getByRole("heading", { name: "This purchase is cancelled" })).toBeVisible();
    await expect(
      page.getByText("You cancelled it. The hold on your card is released; nothing was charged."),
    ).toBeVisible();
    await snap(page, testInfo, "cancelled");

    const read = await api.get(`/api/v1/purchases/${purchase.purchase_id}`);
    expect(read.status()).toBe(200);
    expect(await read.json()).toMatchObject({
      purchase_id: purchase.purchase_id,
      status: "cancelled",
      charges_at: null,
      error: null,
    });

    await page.goto("/account/purchases");
    const row = page.locator(`[data-purchase-id="${purchase.purchase_id}"]`);
    await expect(row.getByTestId("purchase-status")).toHaveText("Cancelled");
    await expect(row).toContainText("Errand Assistant");
    await snap(page, testInfo, "dashboard-cancelled");
    await Promise.all([api.dispose(), anonymous.dispose()]);
  });

  test("approving again: purchase:write shows as allowed; unticking it withdraws it, the dashboard shows it gone and the token can no longer buy", async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    await signInNewShopper(page, {
      prefix: "assistant-withdraw",
      name: "Noor",
      path: "/account/apps",
      extra: ["--address-json", JSON.stringify(shopperAddress)],
    });
    // The sign-in page's own URL ends with its callbackUrl: wait for the page itself.
    await expect(page.getByRole("heading", { name: "Connected apps" })).toBeVisible();
    const anonymous = await playwright.request.newContext({ baseURL });
    const { token, authorizePath } = await connectAssistant(page, anonymous, baseURL!);

    await page.goto(authorizePath);
    const purchase = page.getByRole("checkbox", {
      name: /Let Errand Assistant buy items for me with my saved card/,
    });
    await expect(purchase).toBeChecked();
    await expect(page.getByTestId("granted-permission")).toHaveText("Allowed now");
    await snap(page, testInfo, "consent-purchase-allowed");
    await purchase.uncheck();
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/^https:\/\/assistant\.example\.com\/callback\?/);

    await page.goto("/account/apps");
    const app = page.getByRole("listitem", { name: "Errand Assistant" });
    await expect(app).toContainText("address:read");
    await expect(app).not.toContainText("purchase:write");
    await snap(page, testInfo, "apps-purchase-withdrawn");

    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${token}` },
    });
    const address = await (await api.get("/api/v1/me/shipping-address")).json();
    const quote = await api.post("/api/v1/checkout/quotes", {
      data: { items: [await directItem(api)], shipping_address: address },
    });
    expect(quote.status()).toBe(201);
    const bought = await api.post("/api/v1/purchases", {
      data: { quote_id: (await quote.json()).quote_id },
      headers: { "Idempotency-Key": randomUUID() },
    });
    expect(bought.status()).toBe(403);
    expect((await bought.json()).error.code).toBe("insufficient_scope");
    await Promise.all([api.dispose(), anonymous.dispose()]);
  });
});
