/**
 * One verified Stripe event, acted on once: recorded by its id (a redelivery finds it), claimed by
 * this delivery (a concurrent delivery of the same event is told to come back: 409), acted on, then
 * marked processed. A failure gives the claim back and is answered 500, so Stripe retries the event
 * (for up to 3 days, with backoff); the polling stays as the safety net behind that.
 */
import type { Db } from "../../platform/db";
import { AppError } from "../../core/errors";
import type { PaymentProvider } from "../../payments";
import { eventActions, isHandledType } from "./act-on-event";
import { idOf, type TStripeEvent } from "./event.schema";
import { claimEvent, finishEvent, isProcessed, recordEvent, releaseClaim } from "./store";

export type ReceiveOutcome = "ignored" | "duplicate" | "processed";

export const receiveStripeEvent = async (options: {
  db: Db;
  provider: () => PaymentProvider;
  event: TStripeEvent;
  now: Date;
}): Promise<ReceiveOutcome> => {
  const { db, event, now } = options;
  if (!isHandledType(event.type)) return "ignored";
  const object = event.data.object;
  const paymentIntentId = event.type.startsWith("payment_intent.")
    ? object.id
    : idOf(object.payment_intent);
  await recordEvent(
    db,
    {
      id: event.id,
      type: event.type,
      objectId: object.id,
      paymentIntentId,
      stripeCreatedAt: new Date(event.created * 1000),
    },
    now,
  );
  if (!(await claimEvent(db, event.id, now))) {
    if (await isProcessed(db, event.id)) return "duplicate";
    throw new AppError("idempotency_key_in_use", {
      message: `Event ${event.id} is being processed by another delivery; retry later.`,
      retryAfter: 60,
    });
  }
  let outcome: string;
  try {
    outcome = await eventActions[event.type](event, { db, provider: options.provider(), now });
  } catch (error) {
    await releaseClaim(db, event.id, now).catch(() => undefined);
    throw error;
  }
  await finishEvent(db, event.id, outcome, now);
  return "processed";
};
