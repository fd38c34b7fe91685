/**
 * The hosted checkout in a browser: a partner creates the quote and checkout over the API, the
 * person pays on the page, and the partner reads the result; the confirmation arrives by SMTP.
 */
import { expect, test } from "../fixtures/api-client";
import { createCheckout, englishMoney, waitForEmail } from "../fixtures/checkout";

const fillCard = async (page: import("@playwright/test").Page, number: string) => {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Month").fill("12");
  await page.getByLabel("Year").fill("2034");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel(/I accept the terms/).check();
};

test.describe("[CHECKOUT] hosted page", () => {
  test("pays with the success card; the API reports paid with the order number; the confirmation email arrives", async ({
    partner,
    page,
  }) => {
    const { checkout, email } = await createCheckout(partner.api, 1);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await expect(page.getByTestId("grand-total")).toHaveText(
      englishMoney(checkout.totals.grand_total.amount),
    );
    await expect(page.getByText("HST 13%").first()).toBeVisible();
    await fillCard(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByRole("heading", { name: /Paid/ })).toBeVisible();
    const orderNumber = (await page.getByTestId("order-number").textContent())!;
    expect(orderNumber).toMatch(/^SO-[0-9A-Z]{8}$/);
    await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
    const status = await (
      await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)
    ).json();
    expect(status).toMatchObject({ status: "paid", order_number: orderNumber });
    expect(status.stores[0].order.order_number).toBe(`${orderNumber}-1`);
    const message = await waitForEmail(partner.api, email, new RegExp(orderNumber));
    expect(message.text).toContain(`${orderNumber}-1`);
  });

  test("a declined card leaves the checkout payable", async ({ partner, page }) => {
    const { checkout } = await createCheckout(partner.api, 2);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Your card was declined" }),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeVisible();
    expect(
      (await (await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)).json())
        .status,
    ).toBe("awaiting_payment");
  });

  test("a decline or a failed authentication keeps what was typed: number, expiry, CVC, terms", async ({
    partner,
    page,
  }) => {
    // React resets a <form action={fn}> after its action; the pay form must not (its header says so).
    const expectTyped = async (number: string) => {
      await expect(page.getByLabel("Card number")).toHaveValue(number);
      await expect(page.getByLabel("Month")).toHaveValue("12");
      await expect(page.getByLabel("Year")).toHaveValue("2034");
      await expect(page.getByLabel("CVC")).toHaveValue("123");
      await expect(page.getByLabel(/I accept the terms/)).toBeChecked();
    };
    const { checkout } = await createCheckout(partner.api, 13);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Your card was declined" }),
    ).toBeVisible();
    await expectTyped("4000 0000 0000 0002");
    await page.getByLabel("Card number").fill("4000 0025 0000 3155");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.getByRole("button", { name: "Fail authentication" }).click();
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeVisible();
    await expectTyped("4000 0025 0000 3155");
    // What was kept is what the next attempt sends: only the number changes, and it pays.
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByRole("heading", { name: /Paid/ })).toBeVisible();
  });

  test("the authentication card shows the confirm step, and completing it pays", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 3);
    await page.goto(new URL(checkout.checkout_url).pathname);
    await fillCard(page, "4000 0025 0000 3155");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(
      page.getByRole("heading", { name: "Confirm this payment with your bank" }),
    ).toBeVisible();
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await expect(page.getByRole("heading", { name: /Paid/ })).toBeVisible();
  });

  test("changing shipping updates the totals; a cancelled checkout shows its state and no pay button", async ({
    partner,
    page,
  }) => {
    const { checkout } = await createCheckout(partner.api, 4);
    await page.goto(new URL(checkout.checkout_url).pathname);
    const before = await page.getByTestId("grand-total").textContent();
    await page.getByLabel(/Purolator Express/).check();
    await expect(page.getByTestId("grand-total")).not.toHaveText(before!);
    const detail = await (
      await partner.api.get(`/api/v1/checkout/sessions/${checkout.checkout_id}`)
    ).json();
    await expect(page.getByTestId("grand-total")).toHaveText(
      englishMoney(detail.totals.grand_total.amount),
    );
    expect(
      (await partner.api.post(`/api/v1/checkout/sessions/${checkout.checkout_id}/cancel`)).status(),
    ).toBe(200);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Cancelled" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  });
});
