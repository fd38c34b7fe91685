/**
 * Fixtures of the `stripe` project: the service configured as in production with the Stripe
 * processor (e2e/serve.ts, E2E_PROCESSOR=stripe). Every browser context gets the Stripe.js
 * stand-in and the route of https://api.stripe.com to the Stripe-shaped server.
 */
import type { Page } from "@playwright/test";
import { expect, serviceState, test as base } from "../fixtures/api-client";
import { routeStripe } from "../stripe-js-stand-in/routes";

export const stripeApiBase = () => serviceState("stripe").stripeApiBase!;

export const test = base.extend({
  context: async ({ context }, use) => {
    await routeStripe(context, stripeApiBase());
    await use(context);
  },
});

export { expect };

/** The PaymentIntents "Stripe" holds for a checkout (by the metadata our service gives them), asked with the service's secret key. */
export const intentsOf = async (checkoutId: string) => {
  const query = encodeURIComponent(`metadata['checkout_id']:'${checkoutId}'`);
  const response = await fetch(`${stripeApiBase()}/v1/payment_intents/search?query=${query}`, {
    headers: { authorization: "Bearer sk_test_e2e" },
  });
  return (
    (await response.json()) as {
      data: { id: string; status: string; amount: number; amount_received: number }[];
    }
  ).data;
};

/** Types a card into the Payment Element (the stand-in's inputs, in its shadow root) and accepts the terms. */
export const fillCard = async (page: Page, number: string, cvc = "123") => {
  await page.getByRole("tab", { name: "Card" }).click();
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("Security code").fill(cvc);
  await page.getByLabel(/I accept the terms/).check();
};

export const payButton = (page: Page) => page.getByRole("button", { name: /^Pay \$/ });
