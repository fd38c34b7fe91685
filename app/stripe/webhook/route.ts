import { handleStripeWebhook } from "@/server/edges/stripe-webhook/endpoint";

/** Stripe's webhook deliveries (server/edges/stripe-webhook/endpoint.ts); served by the lean node:http layer under `npm start`. */
export const POST = (request: Request) => handleStripeWebhook(request);
