/**
 * Serves the Stripe.js stand-in in place of https://js.stripe.com/... (which @stripe/stripe-js's
 * loadStripe injects), and forwards what it sends to https://api.stripe.com/v1 to the local
 * Stripe-shaped server that e2e/serve.ts started for the Stripe-configured service. On a
 * BrowserContext, so every tab (a second tab paying the same checkout) gets them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";

const standIn = readFileSync(path.join(__dirname, "stripe.js"), "utf8");

export const routeStripe = async (context: BrowserContext, stripeApiBase: string) => {
  await context.route(/^https:\/\/js\.stripe\.com\//, (route) =>
    route.fulfill({ status: 200, contentType: "application/javascript", body: standIn }),
  );
  await context.route(/^https:\/\/api\.stripe\.com\//, async (route) => {
    const request = route.request();
    const target = new URL(request.url());
    const response = await route.fetch({
      url: `${stripeApiBase}${target.pathname}${target.search}`,
    });
    await route.fulfill({
      response,
      headers: { ...response.headers(), "access-control-allow-origin": "*" },
    });
  });
};
