/**
 * [STRIPE] /account/card as in production: the card is saved through the Payment Element in setup
 * mode (the Stripe.js stand-in) on a SetupIntent for the person's Stripe Customer; replacing it
 * detaches the old PaymentMethod at Stripe; removing detaches the last one. No request to our
 * origin carries the card number.
 */
import { opsOn, serviceState } from "../fixtures/api-client";
import { signIn, unique } from "../fixtures/shoppers";
import { expect, stripeApiBase, test } from "./stripe-fixtures";

const paymentMethod = async (id: string) =>
  (await (
    await fetch(`${stripeApiBase()}/v1/payment_methods/${id}`, {
      headers: { authorization: "Bearer sk_test_e2e" },
    })
  ).json()) as { customer: string | null; card: { last4: string } };

test.describe("[STRIPE] saved card with the Payment Element", () => {
  test("save a card, replace it (the old one is detached at Stripe), remove it", async ({
    page,
    baseURL,
  }) => {
    const email = `stripe-card-${unique()}@example.ca`;
    opsOn(
      serviceState("stripe"),
      "person:create",
      "--email",
      email,
      "--password",
      "sandbox password 1",
      "--verified",
      "--name",
      "Cara",
    );
    await page.goto("/sign-in?callbackUrl=/account/card");
    await signIn(page, email, "sandbox password 1");
    await expect(page).toHaveURL(/\/account\/card$/, { timeout: 15_000 });
    const saved = page.getByTestId("saved-card");
    await expect(saved).toContainText("No card saved");
    await expect(page.locator("input[name=number], input[name=cvc]")).toHaveCount(0);

    const sent: { url: string; body: string }[] = [];
    page.on("request", (request) =>
      sent.push({ url: request.url(), body: request.postData() ?? "" }),
    );
    // The SetupIntents the page confirmed (as Stripe.js sends them), and the PaymentMethods of those that succeeded.
    const setups: string[] = [];
    page.on("request", (request) => {
      const confirmed = /^\/v1\/setup_intents\/(\w+)\/confirm$/.exec(
        new URL(request.url()).pathname,
      );
      if (confirmed) setups.push(confirmed[1]);
    });
    const savedMethods = async () => {
      const found = await Promise.all(
        setups.map(
          async (id) =>
            (await (
              await fetch(`${stripeApiBase()}/v1/setup_intents/${id}`, {
                headers: { authorization: "Bearer sk_test_e2e" },
              })
            ).json()) as { status: string; payment_method: string },
        ),
      );
      return found
        .filter((setup) => setup.status === "succeeded")
        .map((setup) => setup.payment_method);
    };

    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiration date").fill("11 / 33");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: "Save card" }).click();
    await expect(page.getByText("Visa •••• 4242 is saved.")).toBeVisible();
    await expect(saved).toContainText("Expires 11/2033");
    const methods = await savedMethods();
    expect(methods).toHaveLength(1);
    const customer = (await paymentMethod(methods[0])).customer;
    expect(customer).toMatch(/^cus_/);

    await page.reload();
    await expect(saved).toContainText("Visa •••• 4242");

    // A declined card is not saved; the saved one stays.
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByLabel("Expiration date").fill("10 / 32");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: "Replace card" }).click();
    await expect(page.getByRole("alert").filter({ hasText: /declined/ })).toBeVisible();
    await expect(saved).toContainText("Visa •••• 4242");

    // Replace with 3-D Secure: Stripe's page, then back here, which completes on return.
    await page.getByLabel("Card number").fill("4000 0025 0000 3155");
    await page.getByLabel("Expiration date").fill("10 / 32");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: "Replace card" }).click();
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await expect(page).toHaveURL(/\/account\/card/);
    await expect(page.getByText("Visa •••• 3155 is saved.")).toBeVisible();
    await expect(saved).toContainText("Expires 10/2032");

    const ours = sent.filter((request) => new URL(request.url).origin === new URL(baseURL!).origin);
    expect(
      ours.filter((request) =>
        /4242\s*4242|4000\s*0025|0000\s*0002/.test(
          `${request.url} ${decodeURIComponent(request.body)}`,
        ),
      ),
    ).toEqual([]);

    // The replaced PaymentMethod was detached; the new one is on the same Customer.
    methods.push(...(await savedMethods()).slice(1));
    expect(methods).toHaveLength(2);
    expect(await paymentMethod(methods[0])).toMatchObject({
      customer: null,
      card: { last4: "4242" },
    });
    expect(await paymentMethod(methods[1])).toMatchObject({ customer, card: { last4: "3155" } });

    await page.getByRole("button", { name: "Remove card" }).click();
    await expect(page.getByText("Your card is removed.")).toBeVisible();
    await expect(saved).toContainText("No card saved");
    expect(await paymentMethod(methods[1])).toMatchObject({ customer: null });
  });
});
