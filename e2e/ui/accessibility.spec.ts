/**
 * [A11Y] axe (WCAG 2.1 A and AA rules) over every shopper page, in English and in French (a
 * browser asking for fr-CA): sign-in, sign-up, forgot and reset password, email confirmation, the
 * consent page, the hosted checkout, the purchase cancel page, the price-watch cancel page, every
 * /account page and the sandbox mailbox. No violation of impact serious or critical is allowed;
 * when there are some, the failure lists each one (page, language, rule, elements) at once.
 */
import AxeBuilder from "@axe-core/playwright";
import * as oauth from "oauth4webapi";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, ops, serviceState, test } from "../fixtures/api-client";
import { buyableItems, createCheckout } from "../fixtures/checkout";
import { directItem, linkAssistant } from "../fixtures/price-watches";
import { accountPages, unique } from "../fixtures/shoppers";

/** The first link to `path` (a regular expression source) in an email to `to` at the SMTP capture. */
const emailedLink = async (api: APIRequestContext, to: string, path: string) => {
  const { mailCaptureUrl } = serviceState() as { mailCaptureUrl?: string };
  expect(mailCaptureUrl, "e2e/serve.ts runs an SMTP capture").toBeTruthy();
  const pattern = new RegExp(`https?://[^\\s"<>]+${path}\\?token=[^\\s"<>&]+`);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const messages: { text: string }[] = await (
          await api.get(`${mailCaptureUrl}/messages?to=${encodeURIComponent(to)}`)
        ).json();
        link = messages.map((message) => pattern.exec(message.text)?.[0]).find(Boolean);
        return Boolean(link);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
};

/** The authorization request of a partner app asking to link: it lands on the consent page once signed in. */
const consentPath = async () => {
  const client = ops(
    "client:create",
    "--name",
    "Closet Planner",
    "--scopes",
    "catalog:read profile:read address:read alerts:write",
    "--redirect-uri",
    "https://partner.example.com/callback",
    "--linking",
  );
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: "https://partner.example.com/callback",
    scope: "catalog:read profile:read address:read alerts:write",
    state: "a11y",
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: "S256",
  });
  return `/oauth/authorize?${query}`;
};

type Finding = string;

/** axe's serious and critical violations of the page as it is now, one readable line per element. */
const audit = async (page: Page, label: string): Promise<Finding[]> => {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  // axe really looked at the page: some rules passed on it.
  expect(results.passes.length, label).toBeGreaterThan(0);
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${label} — ${violation.id} (${violation.impact}): ${violation.help}\n    at ${node.target.join(" ")}\n    ${node.failureSummary?.replace(/\n/g, "\n    ") ?? ""}`,
      ),
    );
};

/** Opens `path` (where it lands must be that page, not sign-in), lets it hydrate, then audits it. */
const visit = async (page: Page, path: string, label: string) => {
  const response = await page.goto(path);
  expect(response?.status(), `${label}: ${path}`).toBeLessThan(400);
  expect(new URL(page.url()).pathname, label).toBe(new URL(path, "http://x").pathname);
  await settle(page);
  return audit(page, label);
};

/** Loaded and hydrated: the scripts ran and React attached (a moment after load). */
const settle = async (page: Page) => {
  await page.waitForLoadState("load");
  await page.waitForTimeout(400);
};

/** A browser whose Accept-Language is `locale`. */
const browserIn = (browser: Browser, locale: string) => browser.newContext({ locale });

test.describe("[A11Y] shopper pages in English and French", () => {
  test("no serious or critical axe violation on any shopper page", async ({
    browser,
    playwright,
    baseURL,
    partner,
  }) => {
    test.setTimeout(720_000);
    // One person with everything the account pages list: a card, limits, an address, a held
    // purchase (its cancel page), a linked assistant, a price watch (its cancel page), a price
    // watch on several items and a search watch.
    const email = `a11y-${unique()}@example.ca`;
    const password = "sandbox password 1";
    ops(
      "person:create",
      ...["--email", email, "--password", password, "--verified", "--name", "Aude"],
      ...["--card", "4242424242424242", "--limit-per-order", "2000.00"],
      ...["--limit-per-30-days", "5000.00", "--address-json"],
      JSON.stringify({
        // Ontario: assistant purchases and watches do not deliver to Quebec.
        name: "Aude Roy",
        line1: "100 Queen St W",
        city: "Toronto",
        province: "ON",
        postal_code: "M5H 2N2",
        country: "CA",
      }),
    );
    const purchase = ops("purchase:create-sandbox", "--email", email, "--name", "Helper") as {
      purchase_id: string;
    };
    const purchaseCancel = await emailedLink(
      partner.api,
      email,
      `/purchases/${purchase.purchase_id}/cancel`,
    );

    const assistant = await linkAssistant(playwright, baseURL!, { email, password });
    // A watch far below the price (half of it, in a store that lets assistants buy directly), so it stays active.
    const [picked] = await buyableItems(partner.api, 1, 2);
    const detail = await (await partner.api.get(`/api/v1/products/${picked.item_id}`)).json();
    ops("store:set", detail.store.slug, "--agent-checkout", "direct");
    const priceCents = Math.round(Number(detail.price.amount) * 100);
    const watch = await assistant.post("/api/v1/price-watches", {
      data: {
        catalog_item_id: String(picked.item_id),
        size: picked.size ?? null,
        max_price: (Math.floor(priceCents / 2) / 100).toFixed(2),
        max_total: 1000,
        days: 3,
      },
    });
    expect(watch.status(), await watch.text()).toBe(201);
    const watchCancel = await emailedLink(
      partner.api,
      email,
      `/price-watches/${(await watch.json()).price_watch_id}/cancel`,
    );
    // A price watch on several items (its page's list) and a search watch that buys (nothing matches it).
    const grouped = await directItem(partner.api, 17);
    const group = await assistant.post("/api/v1/price-watch-groups", {
      data: {
        alternatives: [
          {
            catalog_item_id: String(grouped.picked.item_id),
            size: grouped.picked.size ?? null,
            max_price: grouped.target,
          },
        ],
        max_total: 1000,
      },
    });
    expect(group.status(), await group.text()).toBe(201);
    const search = await assistant.post("/api/v1/search-watches", {
      data: { mode: "buy", q: `nothing${unique()}`, max_total: 500 },
    });
    expect(search.status(), await search.text()).toBe(201);
    const { checkout } = await createCheckout(partner.api, 3);
    const checkoutPath = new URL(checkout.checkout_url).pathname;

    const findings: Finding[] = [];
    for (const locale of ["en-CA", "fr-CA"]) {
      const context = await browserIn(browser, locale);
      const page = await context.newPage();
      // Signed out.
      findings.push(...(await visit(page, "/sign-in", `sign-in [${locale}]`)));
      findings.push(...(await visit(page, "/sign-up", `sign-up [${locale}]`)));
      findings.push(...(await visit(page, "/forgot-password", `forgot-password [${locale}]`)));
      await page.getByRole("textbox").first().fill(email);
      await page.getByRole("button").last().click();
      await expect(page.getByRole("status")).toBeVisible();
      findings.push(...(await audit(page, `forgot-password, sent [${locale}]`)));
      const reset = await emailedLink(partner.api, email, "/reset-password");
      findings.push(...(await visit(page, reset, `reset-password [${locale}]`)));
      findings.push(
        ...(await visit(page, "/verify-email?token=expired", `verify-email, expired [${locale}]`)),
      );
      findings.push(...(await visit(page, checkoutPath, `hosted checkout [${locale}]`)));
      findings.push(...(await visit(page, purchaseCancel, `purchase cancel [${locale}]`)));
      findings.push(...(await visit(page, watchCancel, `price-watch cancel [${locale}]`)));

      // Signed in.
      // The form by its fields' types: its labels are in the page's language.
      await page.goto("/sign-in?callbackUrl=/account");
      await page.locator("input[type=email]").fill(email);
      await page.locator("input[type=password]").fill(password);
      await page.locator("form button[type=submit]").click();
      // The path itself: the sign-in page's own URL ends with callbackUrl=/account.
      await page.waitForURL((url) => url.pathname === "/account", { timeout: 15_000 });
      for (const path of [...accountPages, "/sandbox/mailbox"]) {
        findings.push(...(await visit(page, path, `${path} [${locale}]`)));
      }
      // A refused form shows its errors: they must be readable too.
      await page.goto("/account/address");
      // A Quebec postal code for the saved Ontario address: refused, next to its field.
      await page.locator("#field-postal_code").fill("H2Y 1C6");
      await page.locator("form button[type=submit]").first().click();
      await expect(page.locator("#field-postal_code-error")).toBeVisible();
      findings.push(...(await audit(page, `/account/address, refused [${locale}]`)));

      const consent = await consentPath();
      await page.goto(consent);
      await page.waitForURL(/\/oauth\/consent/);
      await settle(page);
      findings.push(...(await audit(page, `consent [${locale}]`)));
      await context.close();
    }
    await assistant.dispose();
    expect(findings, `axe found:\n${findings.join("\n")}`).toEqual([]);
  });
});
