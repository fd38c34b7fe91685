/**
 * [ALERTS] price alerts end to end in Debian chromium against the running service: a person links
 * an app through sign-in and the consent page (ticking alerts:write), the app sets two alerts over
 * the API, a sandbox price drop reaches one target, the person reads the one email in the SMTP
 * capture, sees that alert ended at /account/alerts and stops the other through @trpc/client;
 * search shows them watching (you_are_watching) and the alert counted for nobody else.
 */
import * as oauth from "oauth4webapi";
import { expect, ops, serviceState, test } from "../fixtures/api-client";
import { approveThroughPages, signIn as signInRequest } from "../fixtures/linking";
import { signIn, snap, unique } from "../fixtures/shoppers";
import { formatMoney } from "../../server/core/locale";
import { parseCents } from "../../server/core/money";

const redirectUri = "https://partner.example.com/callback";
const insecure = { [oauth.allowInsecureRequests]: true };

type Summary = {
  id: number;
  price: { amount: string };
  price_watchers: number;
  you_are_watching: boolean;
};

test.describe("[ALERTS] price alerts", () => {
  test("an app sets alerts; a price drop emails once; the person sees it and stops the other", async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    const email = `alerts-${unique()}@example.ca`;
    const password = "sandbox password 1";
    ops("person:create", "--email", email, "--password", password, "--verified", "--name", "Ari");
    const client = ops(
      "client:create",
      "--name",
      "Deal Finder",
      "--scopes",
      "catalog:read alerts:write",
      "--redirect-uri",
      redirectUri,
      "--linking",
    );
    const issuer = new URL(baseURL!);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
    );
    const browser = await playwright.request.newContext({ baseURL });
    await signInRequest(browser, email, password);
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: "catalog:read alerts:write",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const { callback, consentHtml } = await approveThroughPages(browser, url, {
      tick: ["alerts:write"],
    });
    expect(consentHtml).toContain('value="alerts:write"');
    const registered: oauth.Client = { client_id: client.client_id };
    const params = oauth.validateAuthResponse(as, registered, callback, oauth.expectNoState);
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
    expect(tokens.scope).toBe("catalog:read alerts:write");
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${tokens.access_token}` },
    });

    // Two alerts on items of stores that offer them (others refuse with store_alerts_unavailable).
    const items = (
      (await (await api.get("/api/v1/products?per_page=48&sort=price_desc")).json()) as {
        data: Summary[];
      }
    ).data;
    const alerts: { id: string; item: Summary }[] = [];
    for (const item of items) {
      if (alerts.length === 2) break;
      const target = (Number(item.price.amount.replace(".", "")) - 100) / 100;
      const response = await api.post("/api/v1/price-alerts", {
        data: { catalog_item_id: String(item.id), target_price: target.toFixed(2) },
      });
      const body = await response.json();
      if (response.status() === 409) {
        expect(body.error.code).toBe("store_alerts_unavailable");
        continue;
      }
      expect(response.status()).toBe(201);
      expect(body).toMatchObject({ status: "active", catalog_item_id: String(item.id) });
      alerts.push({ id: body.price_alert_id, item });
    }
    expect(alerts).toHaveLength(2);
    const [dropped, other] = alerts;

    // Search with the person's token: watching, and their own alert not counted.
    const own = (await (await api.get(`/api/v1/products/${dropped.item.id}`)).json()) as Summary;
    expect(own).toMatchObject({
      you_are_watching: true,
      price_watchers: dropped.item.price_watchers,
    });

    // The sandbox price helper drops the price two dollars: under the target.
    const newPrice = ((Number(dropped.item.price.amount.replace(".", "")) - 200) / 100).toFixed(2);
    expect(
      (
        await api.post(`/api/v1/sandbox/items/${dropped.item.id}/price`, {
          data: { price: newPrice },
        })
      ).status(),
    ).toBe(200);

    // One email, read from the SMTP capture.
    const { mailCaptureUrl } = serviceState() as { mailCaptureUrl?: string };
    expect(mailCaptureUrl).toBeTruthy();
    let messages: { subject: string; text: string }[] = [];
    await expect(async () => {
      messages = await (
        await browser.get(`${mailCaptureUrl}/messages?to=${encodeURIComponent(email)}`)
      ).json();
      expect(messages.filter((message) => message.subject.startsWith("Price drop"))).toHaveLength(
        1,
      );
    }).toPass({ timeout: 30_000 });
    const alertEmail = messages.find((message) => message.subject.startsWith("Price drop"))!;
    // The person has no saved language: English, money as en-CA reads it ("$1,234.56").
    expect(alertEmail.subject).toContain(formatMoney(parseCents(newPrice), "en-CA"));
    expect(alertEmail.text).toContain("Nothing was bought");

    // The dashboard: the fired alert has ended; the other is stopped with the button.
    await page.goto("/sign-in?callbackUrl=/account/alerts");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/account\/alerts$/, { timeout: 15_000 });
    const firedRow = page.locator(`[data-alert-id="${dropped.id}"]`);
    const otherRow = page.locator(`[data-alert-id="${other.id}"]`);
    await expect(firedRow.getByTestId("alert-status")).toHaveText("Price reached: emailed");
    await expect(firedRow.getByRole("button", { name: "Stop alert" })).toHaveCount(0);
    await expect(otherRow.getByTestId("alert-status")).toHaveText("Watching");
    await snap(page, testInfo, "alerts-before-stop");
    const mutation = page.waitForRequest(
      (request) =>
        request.url().includes("/api/trpc/account.stopMyAlert") && request.method() === "POST",
    );
    await otherRow.getByRole("button", { name: "Stop alert" }).click();
    await mutation;
    await expect(page.getByText("will not email you")).toBeVisible();
    await expect(otherRow.getByTestId("alert-status")).toHaveText("Stopped");
    await snap(page, testInfo, "alerts-after-stop");

    // The same list in French (the saved-language cookie): translated, money as Quebec reads it.
    await page.context().addCookies([{ name: "lang", value: "fr", url: baseURL! }]);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alertes de prix");
    await expect(firedRow.getByTestId("alert-status")).toContainText("Prix atteint");
    await expect(otherRow.getByTestId("alert-status")).toHaveText("Arrêtée");
    await expect(firedRow).toContainText(formatMoney(parseCents(newPrice), "fr-CA"));
    await expect(page.getByText(/Fuseau horaire/)).toHaveCount(1);
    await snap(page, testInfo, "alerts-after-stop-fr");

    const listed = await (await api.get("/api/v1/price-alerts")).json();
    const statuses = Object.fromEntries(
      listed.data.map((alert: { price_alert_id: string; status: string }) => [
        alert.price_alert_id,
        alert.status,
      ]),
    );
    expect(statuses).toEqual({ [dropped.id]: "notified", [other.id]: "stopped" });
    expect(
      ((await (await api.get(`/api/v1/products/${other.item.id}`)).json()) as Summary)
        .you_are_watching,
    ).toBe(false);
    await api.dispose();
    await browser.dispose();
  });
});
