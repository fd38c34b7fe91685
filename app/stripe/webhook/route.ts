import { handleStripeWebhook } from "@/server/stripe-webhook/endpoint";

/** Stripe's webhook deliveries (server/stripe-webhook/endpoint.ts); served by the lean node:http layer under `npm start`. */
export const POST = (request: Request) => handleStripeWebhook(request);
