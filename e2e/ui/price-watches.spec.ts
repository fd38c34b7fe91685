/**
 * [WATCHES] A price watch end to end against the running service: an assistant registered at the
 * agent door is linked by a sandbox person (purchase:write ticked on the consent page), sets a
 * watch over the API, the item's price drops through the sandbox helper, the service's sweep acts
 * on the recorded change and buys once; the person sees it bought at /account/watches in
 * Debian chromium and reads the "bought" email that went out over SMTP to the capture.
 */
import * as oauth from "oauth4webapi";
import { expect, ops, test } from "../fixtures/api-client";
import { buyableItems, waitForEmail } from "../fixtures/checkout";
import { approveThroughPages, signIn as signInRequest } from "../fixtures/linking";
import { signIn, snap, unique } from "../fixtures/shoppers";

const redirectUri = "https://assistant.example.com/callback";
const insecure = { [oauth.allowInsecureRequests]: true };

type Playwright = Parameters<Parameters<typeof test>[2]>[0]["playwright"];

/** A verified sandbox person with a card, limits ($2,000 per order) and a Toronto address. */
const newWatcher = (name: string) => {
  const email = `watcher-${unique()}@example.ca`;
  const password = "sandbox password 1";
  ops(
    "person:create",
    "--email",
    email,
    "--password",
    password,
    "--verified",
    "--name",
    name,
    "--card",
    "4242424242424242",
    "--limit-per-order",
    "2000.00",
    "--limit-per-30-days",
    "5000.00",
    "--address-json",
    JSON.stringify({
      name: `${name} Lee`,
      line1: "100 Queen St W",
      city: "Toronto",
      province: "ON",
      postal_code: "M5H 2N2",
      country: "CA",
    }),
  );
  return { email, password };
};

/** An assistant registered at the agent door, linked by the person with purchase:write ticked: its API context. */
const linkAssistant = async (
  playwright: Playwright,
  baseURL: string,
  person: { email: string; password: string },
) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  const agent = await (
    await anonymous.post("/oauth/register/agent", {
      data: { client_name: "Deal Finder", redirect_uris: [redirectUri] },
    })
  ).json();
  const issuer = new URL(baseURL);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: agent.client_id,
    redirect_uri: redirectUri,
    scope: "catalog:read checkout:write purchase:write",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  const consenting = await playwright.request.newContext({ baseURL });
  await signInRequest(consenting, person.email, person.password);
  const { callback } = await approveThroughPages(consenting, url, { tick: ["purchase:write"] });
  const client: oauth.Client = { client_id: agent.client_id, token_endpoint_auth_method: "none" };
  const params = oauth.validateAuthResponse(as, client, callback, oauth.expectNoState);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      insecure,
    ),
  );
  await Promise.all([anonymous.dispose(), consenting.dispose()]);
  return playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${tokens.access_token}` },
  });
};

/** A buyable item (page `page` of the newest) with its store switched to direct, and half its price as a target. */
const directItem = async (api: Parameters<typeof buyableItems>[0], page = 1) => {
  const [picked] = await buyableItems(api, 1, page);
  const detail = await (await api.get(`/api/v1/products/${picked.item_id}`)).json();
  ops("store:set", detail.store.slug, "--agent-checkout", "direct");
  const priceCents = Math.round(Number(detail.price.amount) * 100);
  return {
    picked,
    price: detail.price.amount as string,
    target: (Math.floor(priceCents / 2) / 100).toFixed(2),
  };
};

test.describe("[WATCHES] price watches", () => {
  test("a watch set over the API buys after a sandbox price drop; the dashboard and the email show it", async ({
    page,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    const person = newWatcher("Wren");
    const { email, password } = person;
    const { picked, price, target } = await directItem(partner.api);
    const assistant = await linkAssistant(playwright, baseURL!, person);

    // The watch, over the API.
    const set = await assistant.post("/api/v1/price-watches", {
      data: {
        catalog_item_id: String(picked.item_id),
        size: picked.size ?? null,
        max_price: target,
        max_total: 1000,
        days: 3,
      },
    });
    expect(set.status()).toBe(201);
    const watch = await set.json();
    expect(watch).toMatchObject({
      status: "active",
      max_price: { amount: target },
      current_price: { amount: price },
    });
    await waitForEmail(partner.api, email, /set a price watch for you/);

    // The store drops the price (sandbox helper); the service acts on the recorded change.
    const drop = await partner.api.post(`/api/v1/sandbox/items/${picked.item_id}/price`, {
      data: { price: target },
    });
    expect(drop.status()).toBe(200);
    await expect
      .poll(
        async () =>
          (await (await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)).json())
            .status,
        { timeout: 20_000 },
      )
      .toBe("fulfilled");
    const bought = await (
      await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)
    ).json();
    expect(bought).toMatchObject({ outcome: "bought", current_price: { amount: target } });
    expect(bought.order_number).toMatch(/^SO-/);

    // The person reads the email the service sent over SMTP.
    const mail = await waitForEmail(partner.api, email, /Your price watch bought/);
    expect(mail.text).toContain(bought.order_number);
    expect(mail.text).toContain(`/purchases/${bought.purchase_id}/cancel?token=`);

    // And sees it in the dashboard.
    await page.goto("/sign-in?callbackUrl=/account/watches");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/account\/watches$/, { timeout: 15_000 });
    const row = page.locator(`[data-watch-id="${watch.price_watch_id}"]`);
    await expect(row.getByTestId("watch-status")).toHaveText("Bought");
    await expect(row.getByTestId("watch-order")).toHaveText(bought.order_number);
    await expect(row).toContainText("Deal Finder");
    await expect(row.getByRole("button", { name: "Cancel watch" })).toHaveCount(0);
    await snap(page, testInfo, "watch-bought");
    await assistant.dispose();
  });

  test("the dashboard cancels an active watch through @trpc/client", async ({
    page,
    playwright,
    baseURL,
    partner,
  }, testInfo) => {
    const person = newWatcher("Ira");
    const { email, password } = person;
    const { picked, target } = await directItem(partner.api, 2);
    const assistant = await linkAssistant(playwright, baseURL!, person);
    const set = await assistant.post("/api/v1/price-watches", {
      data: {
        catalog_item_id: String(picked.item_id),
        size: picked.size ?? null,
        max_price: target,
        max_total: 1000,
      },
    });
    expect(set.status()).toBe(201);
    const watch = await set.json();

    await page.goto("/sign-in?callbackUrl=/account/watches");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/account\/watches$/, { timeout: 15_000 });
    const row = page.locator(`[data-watch-id="${watch.price_watch_id}"]`);
    await expect(row.getByTestId("watch-status")).toHaveText("Watching");
    const mutation = page.waitForRequest(
      (request) =>
        request.url().includes("/api/trpc/account.cancelMyWatch") && request.method() === "POST",
    );
    await row.getByRole("button", { name: "Cancel watch" }).click();
    await mutation;
    await expect(page.getByText("The watch is cancelled")).toBeVisible();
    await expect(row.getByTestId("watch-status")).toHaveText("Cancelled");
    await snap(page, testInfo, "watch-cancelled");
    expect(
      (await (await assistant.get(`/api/v1/price-watches/${watch.price_watch_id}`)).json()).status,
    ).toBe("cancelled");
    await assistant.dispose();
  });
});
