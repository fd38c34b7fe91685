/**
 * [LINKING] The whole linked-account journey: a partner links a sandbox shopper through the real
 * pages, creates a checkout with the linked token, the shopper pays it in the browser with their
 * account's email, and the partner then finds the order in GET /api/v1/me/orders. Another linked
 * person sees none of it.
 */
import { randomUUID } from "node:crypto";
import * as oauth from "oauth4webapi";
import { expect, ops, test } from "../fixtures/api-client";
import { buyableItems, shopperAddress } from "../fixtures/checkout";
import { approveThroughPages, signIn } from "../fixtures/linking";

const redirectUri = "https://partner.example.com/callback";
const insecure = { [oauth.allowInsecureRequests]: true };

const linkPerson = async (
  playwright: import("@playwright/test").PlaywrightWorkerArgs["playwright"],
  baseURL: string,
  client: { client_id: string; client_secret: string },
) => {
  const email = `orders-${randomUUID().slice(0, 8)}@example.ca`;
  ops(
    "person:create",
    "--email",
    email,
    "--password",
    "sandbox password 1",
    "--name",
    "Olu",
    "--verified",
  );
  const issuer = new URL(baseURL);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
  );
  const browser = await playwright.request.newContext({ baseURL });
  await signIn(browser, email, "sandbox password 1");
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: "catalog:read checkout:write orders:read",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  const { callback } = await approveThroughPages(browser, url);
  const registered: oauth.Client = { client_id: client.client_id };
  const params = oauth.validateAuthResponse(as, registered, callback);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    registered,
    await oauth.authorizationCodeGrantRequest(
      as,
      registered,
      oauth.ClientSecretBasic(client.client_secret),
      params,
      redirectUri,
      verifier,
      insecure,
    ),
  );
  await browser.dispose();
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${tokens.access_token}` },
  });
  return { email, api };
};

test.describe("[LINKING] linked orders", () => {
  test("a checkout paid with the account's email appears in the person's /me/orders, and only theirs", async ({
    playwright,
    baseURL,
    page,
  }) => {
    const client = ops(
      "client:create",
      "--name",
      "Wardrobe Helper",
      "--scopes",
      "catalog:read checkout:write orders:read",
      "--redirect-uri",
      redirectUri,
      "--linking",
    );
    const shopper = await linkPerson(playwright, baseURL!, client);
    const other = await linkPerson(playwright, baseURL!, client);
    expect(await (await shopper.api.get("/api/v1/me/orders")).json()).toMatchObject({ data: [] });

    const items = await buyableItems(shopper.api, 1, 3);
    const quote = await (
      await shopper.api.post("/api/v1/checkout/quotes", {
        data: { items, shipping_address: shopperAddress },
      })
    ).json();
    const session = await shopper.api.post("/api/v1/checkout/sessions", {
      data: { quote_id: quote.quote_id, email: shopper.email, first_name: "Olu" },
      headers: { "Idempotency-Key": randomUUID() },
    });
    expect(session.status()).toBe(201);
    const checkout = await session.json();

    await page.goto(new URL(checkout.checkout_url).pathname);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Month").fill("12");
    await page.getByLabel("Year").fill("2034");
    await page.getByLabel("CVC").fill("123");
    await page.getByLabel(/I accept the terms/).check();
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByRole("heading", { name: /Paid/ })).toBeVisible();
    const orderNumber = (await page.getByTestId("order-number").textContent())!;

    const orders = await (await shopper.api.get("/api/v1/me/orders")).json();
    expect(JSON.stringify(orders)).toContain(orderNumber);
    expect(JSON.stringify(await (await other.api.get("/api/v1/me/orders")).json())).not.toContain(
      orderNumber,
    );
    await Promise.all([shopper.api.dispose(), other.api.dispose()]);
  });
});
