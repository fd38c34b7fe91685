/**
 * What each Stripe event type does. The PaymentIntent events drive the same transitions as the
 * polling (server/checkout/settle-payments.ts), from what Stripe's API says now (never from the
 * event's copy of the object), so a late, repeated or out-of-order event is harmless: a checkout's
 * attempt goes through completeCheckoutIntent, a purchase's payment through actOnPurchasePayment.
 * A charge's or a refund's event records what Stripe lists of the PaymentIntent's refunds now
 * (syncProcessorRefunds): one made in its dashboard, one of ours settled or failed at the bank; a
 * dispute's events, as recordDispute keeps it. A type not
 * in this table is answered 200 and ignored (Stripe sends what the endpoint subscribes to).
 */
import type { Db } from "../../platform/db";
import { findPaymentOfIntent, type PaymentProvider } from "../../payments";
import { completeCardSetup } from "../../accounts";
import { completeCheckoutIntent } from "../../checkout";
import { ownerOfAuthorizeKey } from "./authorize-key";
import { idOf, type TStripeEvent } from "./event.schema";
import { syncProcessorRefunds } from "../../refunds";
import { recordDispute } from "../../disputes";
import { actOnPurchasePayment } from "./purchase-payment";

type Context = { db: Db; provider: PaymentProvider; now: Date };
type Act = (event: TStripeEvent, context: Context) => Promise<string>;

/** A PaymentIntent's event: its payment, found by the intent's id (or its authorize key), settled by its owner. */
const onPaymentIntent: Act = async (event, { db, provider, now }) => {
  const intent = event.data.object;
  const payment = await findPaymentOfIntent(db, {
    paymentIntentId: intent.id,
    owner: ownerOfAuthorizeKey(intent.metadata?.authorize_key),
  });
  // Another integration on the same Stripe account, or a payment of another environment.
  if (!payment) return "not_ours";
  if (payment.checkoutId) {
    await completeCheckoutIntent(db, provider, {
      processorPaymentId: payment.processorPaymentId,
      now,
    });
    return "checkout";
  }
  return `purchase:${await actOnPurchasePayment(db, provider, { payment, now })}`;
};

/**
 * A saved card's SetupIntent succeeded (the Payment Element on /account/card): saved as the page's
 * return would (completeCardSetup retrieves it from Stripe; a card replaced or removed since is
 * detached and never saved again, so a late event of an older setup changes nothing).
 */
const onSetupIntentSucceeded: Act = async (event, { db, provider, now }) => {
  const outcome = await completeCardSetup(db, provider, {
    setupIntentId: event.data.object.id,
    now,
  });
  return outcome ? ("failed" in outcome ? "card_setup_failed" : "card_saved") : "not_ours";
};

/**
 * A charge refunded, or one of its refunds updated (settled or failed at the bank, also after it
 * succeeded): the refunds Stripe lists for its PaymentIntent, recorded as they now stand.
 */
const onRefunds: Act = async (event, { db, provider, now }) => {
  const intentId = idOf(event.data.object.payment_intent);
  const payment = intentId
    ? await findPaymentOfIntent(db, { paymentIntentId: intentId, owner: null })
    : null;
  if (!payment?.processorPaymentId) return "not_ours";
  const changed = await syncProcessorRefunds(db, provider, {
    processorPaymentId: payment.processorPaymentId,
    now,
  });
  return `refunds:${changed}`;
};

/** A dispute opened, updated or closed: its state asked of Stripe, recorded once and kept up to date. */
const onDispute: Act = async (event, { db, provider, now }) =>
  recordDispute(db, provider, { processorDisputeId: event.data.object.id, now });

export const eventActions: Record<string, Act> = {
  "payment_intent.amount_capturable_updated": onPaymentIntent,
  "payment_intent.succeeded": onPaymentIntent,
  "payment_intent.canceled": onPaymentIntent,
  "payment_intent.payment_failed": onPaymentIntent,
  "setup_intent.succeeded": onSetupIntentSucceeded,
  "charge.refunded": onRefunds,
  "charge.refund.updated": onRefunds,
  "refund.updated": onRefunds,
  "refund.failed": onRefunds,
  "charge.dispute.created": onDispute,
  "charge.dispute.updated": onDispute,
  "charge.dispute.closed": onDispute,
};

export const isHandledType = (type: string) => Object.hasOwn(eventActions, type);
