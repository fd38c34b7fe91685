/**
 * POST /stripe/webhook: Stripe's deliveries of the events of our account. No partner token and no
 * rate limit (Stripe signs instead, and retries what we refuse); the body is read raw, at most
 * 256 KiB (Stripe's events are far smaller), and its signature verified before anything is
 * written. Answers 200 once the event is acted on (or is a redelivery, or a type we ignore); 400
 * for a bad or missing signature, 413 over the cap, 409 while another delivery of the same event
 * is acting on it, 500/503 when acting failed (nothing half-done is kept: Stripe retries).
 */
import { type Clock, systemClock } from "../../platform/clock";
import { db as sharedDb, type Db } from "../../platform/db";
import { env } from "../../platform/env";
import { AppError } from "../../core/errors";
import { BodyTooLargeError, readCappedBytes } from "../../platform/http/read-body";
import { errorResponse, json, toAppError } from "../../platform/http/respond";
import { paymentProvider } from "../../payments";
import type { PaymentProvider } from "../../payments";
import { receiveStripeEvent } from "./receive-event";
import { verifyStripeEvent } from "./verify-event";

/** Stripe's events are a few KiB; the cap only bounds what an unauthenticated sender can make us read. */
export const maxStripeEventBytes = 256 * 1024;

type Dependencies = {
  db: () => Db;
  provider: () => PaymentProvider;
  clock: Clock;
  secrets: () => (string | undefined)[];
};

const defaults: Dependencies = {
  db: sharedDb,
  provider: paymentProvider,
  clock: systemClock,
  secrets: () => [env().STRIPE_WEBHOOK_SECRET, env().STRIPE_WEBHOOK_SECRET_PREVIOUS],
};

export const handleStripeWebhook = async (
  request: Request,
  overrides: Partial<Dependencies> = {},
): Promise<Response> => {
  const deps = { ...defaults, ...overrides };
  try {
    const body = await readCappedBytes(request, maxStripeEventBytes);
    const now = deps.clock.now();
    const event = verifyStripeEvent({
      body,
      signature: request.headers.get("stripe-signature"),
      secrets: deps.secrets(),
      now,
    });
    const outcome = await receiveStripeEvent({
      db: deps.db(),
      provider: deps.provider,
      event,
      now,
    });
    return json({ received: true, outcome });
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return errorResponse(new AppError("payload_too_large", { message: error.message }));
    // Logged under the request's id (the front door set it), which the answer carries too.
    return errorResponse(toAppError(error, request.headers.get("x-request-id") ?? undefined));
  }
};
