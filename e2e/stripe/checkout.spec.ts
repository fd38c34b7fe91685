/**
 * The hosted checkout as in production: the Stripe processor, Stripe's Payment Element (the
 * Stripe.js stand-in), the local Stripe-shaped server. Pay, decline then pay, 3-D Secure with the
 * return to the page, Link, two tabs paying one checkout, the page after expiry, and no request
 * to our origin carrying a card number or CVC.
 */
import { createCheckout } from "../fixtures/checkout";
import { expect, fillCard, intentsOf, payButton, test } from "./stripe-fixtures";

const paid = (page: import("@playwright/test").Page) => page.getByRole("heading", { name: /Paid/ });

test.describe("[STRIPE] hosted checkout with the Payment Element", () => {
  test("pays with a card: one order, one capture of the total, no card form of ours", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 1);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await expect(page.locator("input[name=number], input[name=cvc]")).toHaveCount(0);
    await fillCard(page, "4242 4242 4242 4242");
    await payButton(page).click();
    await expect(paid(page)).toBeVisible();
    const orderNumber = (await page.getByTestId("order-number").textContent())!;
    const status = await (
      await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)
    ).json();
    expect(status).toMatchObject({ status: "paid", order_number: orderNumber });
    const intents = await intentsOf(checkout.checkout_id);
    expect(intents.map((intent) => intent.status)).toEqual(["succeeded"]);
    expect(intents[0].amount_received).toBe(
      Math.round(Number(checkout.totals.grand_total.amount) * 100),
    );
  });

  test("a declined card shows why and leaves the checkout payable; another card then pays", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 2);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await fillCard(page, "4000 0000 0000 0002");
    await payButton(page).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Your card was declined" }),
    ).toBeVisible();
    expect(
      (await (await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)).json())
        .status,
    ).toBe("awaiting_payment");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await payButton(page).click();
    await expect(paid(page)).toBeVisible();
    expect((await intentsOf(checkout.checkout_id)).map((intent) => intent.status).sort()).toEqual([
      "canceled",
      "succeeded",
    ]);
  });

  test("3-D Secure: Stripe's page, then back to the checkout, which completes on return", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 3);
    const path = new URL(checkout.checkout_url).pathname;
    await page.goto(path);
    await fillCard(page, "4000 0025 0000 3155");
    await payButton(page).click();
    await expect(page.getByRole("heading", { name: "3-D Secure test payment page" })).toBeVisible();
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await expect(paid(page)).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(path);
    expect(new URL(page.url()).search).toBe("");
    expect((await intentsOf(checkout.checkout_id)).map((intent) => intent.status)).toEqual([
      "succeeded",
    ]);
  });

  test("3-D Secure failed: back on the page, told so, still payable", async ({ partner, page }) => {
    const { checkout } = await createCheckout(partner.api, 4);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await fillCard(page, "4000 0025 0000 3155");
    await payButton(page).click();
    await page.getByRole("button", { name: "Fail authentication" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "could not confirm" })).toBeVisible();
    await expect(payButton(page)).toBeVisible();
    expect(
      (await (await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)).json())
        .status,
    ).toBe("awaiting_payment");
  });

  test("pays with Link", async ({ partner, page }) => {
    const { checkout, email } = await createCheckout(partner.api, 5);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await page.getByRole("tab", { name: "Link" }).click();
    await page.getByLabel("Link email").fill(email);
    await page.getByLabel(/I accept the terms/).check();
    await payButton(page).click();
    await expect(paid(page)).toBeVisible();
    expect((await intentsOf(checkout.checkout_id)).map((intent) => intent.status)).toEqual([
      "succeeded",
    ]);
  });

  test("two tabs paying the same checkout at once: one order, one capture", async ({
    partner,
    context,
  }) => {
    const { checkout } = await createCheckout(partner.api, 6);
    const tabs = [await context.newPage(), await context.newPage()];
    for (const tab of tabs) {
      await tab.goto(new URL(checkout.checkout_url).pathname);
      await fillCard(tab, "4242 4242 4242 4242");
    }
    await Promise.all(tabs.map((tab) => payButton(tab).click()));
    await expect
      .poll(
        async () =>
          (
            await (
              await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)
            ).json()
          ).status,
      )
      .toBe("paid");
    // Each tab settles: one shows the order, the other a refusal (its intent replaced or the checkout paid).
    for (const tab of tabs) await expect(paid(tab).or(tab.locator("p[role=alert]"))).toBeVisible();
    const intents = await intentsOf(checkout.checkout_id);
    expect(intents.filter((intent) => intent.status === "succeeded")).toHaveLength(1);
    expect(intents.filter((intent) => intent.status === "requires_capture")).toHaveLength(0);
    for (const tab of tabs) {
      await tab.reload();
      await expect(paid(tab)).toBeVisible();
    }
  });

  test("the page after expiry: paying is refused with nothing held, and reopened it shows expired with no payment form", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 7);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await fillCard(page, "4242 4242 4242 4242");
    expect(
      (await partner.api.post(`/api/v1/sandbox/checkouts/${checkout.checkout_id}/expire`)).status(),
    ).toBe(200);
    await payButton(page).click();
    // The refused attempt re-renders the page in its state: expired, no payment form, nothing at Stripe.
    await expect(page.getByRole("heading", { name: "Expired" })).toBeVisible();
    await expect(payButton(page)).toHaveCount(0);
    expect(await intentsOf(checkout.checkout_id)).toEqual([]);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Expired" })).toBeVisible();
    await expect(payButton(page)).toHaveCount(0);
    await expect(page.getByLabel("Card number")).toHaveCount(0);
  });

  test("no request the page sends to our origin carries the card number or the CVC; Stripe gets them", async ({
    partner,
    page,
    baseURL,
  }) => {
    const { checkout } = await createCheckout(partner.api, 8);
    const sent: { url: string; body: string; headers: string }[] = [];
    page.on("request", (request) =>
      sent.push({
        url: request.url(),
        body: request.postData() ?? "",
        headers: JSON.stringify(request.headers()),
      }),
    );
    await page.goto(new URL(checkout.checkout_url).pathname);
    await fillCard(page, "4242 4242 4242 4242", "7351");
    await payButton(page).click();
    await expect(paid(page)).toBeVisible();
    const ours = sent.filter((request) => new URL(request.url).origin === new URL(baseURL!).origin);
    const toStripe = sent.filter(
      (request) => new URL(request.url).origin === "https://api.stripe.com",
    );
    expect(ours.filter((request) => request.body).length).toBeGreaterThan(0);
    const carriesCard = (request: { url: string; body: string; headers: string }) =>
      [request.url, decodeURIComponent(request.body), request.headers].some((text) =>
        /4242\s*4242\s*4242\s*4242|7351/.test(text),
      );
    expect(ours.filter(carriesCard)).toEqual([]);
    expect(toStripe.filter(carriesCard)).toHaveLength(1);
  });
});
