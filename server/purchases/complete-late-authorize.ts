/**
 * A purchase left `processing` because the bank's answer to its authorize was lost (the sandbox's
 * late card, 4000 0000 0000 0408), completed once the answer is known: the processor is asked by
 * the authorize key (never a second authorize) and its answer recorded as the purchase use case
 * would have: a hold → held (charges_at 24 h from now, the copy email now); a decline → requires_person
 * (card_declined); an authentication step → released, requires_person. Used by the sandbox helper
 * POST /sandbox/purchases/{id}/resolve; the sweep's reconcilePurchases still refuses a purchase
 * nobody completed within 60 s (bank_no_answer). Both move processing with a guarded move, so only
 * one of them wins; a hold under a purchase the sweep refused is released by the sweep.
 */
import type { Db } from "../platform/db";
import type { AuthorizeResult } from "../payments";
import {
  findPaymentOfPurchase,
  type PaymentProvider,
  processorKey,
  recordAuthorizeNeedsAction,
  recordDeclinedAuthorize,
} from "../payments";
import { findClientContact } from "../auth";
import { chargeDelayMs, recordAuthorizeAnswer } from "./record-answer";
import { findAwaitingPurchase } from "./store/purchases";

/**
 * True when the processor's answer was found and recorded; false when it has none yet or the purchase is not waiting for one.
 * `processorPaymentId`, when the caller knows it (a Stripe webhook names its PaymentIntent), is asked for
 * directly: a lookup by key goes through Stripe's search, whose index can lag.
 */
export const completeLateAuthorize = async (
  db: Db,
  provider: PaymentProvider,
  options: { id: string; now: Date; processorPaymentId?: string },
) => {
  const { id, now } = options;
  const purchase = await findAwaitingPurchase(db, id);
  if (purchase?.status !== "processing") return false;
  const payment = await findPaymentOfPurchase(db, id);
  if (payment?.status !== "authorizing") return false;
  const found = await provider.retrieve(
    options.processorPaymentId
      ? { paymentId: options.processorPaymentId }
      : { authorizeKey: processorKey({ kind: "purchase", id }, "authorize") },
  );
  if (!found || found.status === "voided" || found.status === "captured") return false;
  let result: AuthorizeResult;
  if (found.status === "declined") {
    await recordDeclinedAuthorize(db, {
      id: payment.id,
      declineCode: found.declineCode,
      processorPaymentId: found.id,
      now,
    });
    result = { kind: "declined", declineCode: found.declineCode };
  } else if (found.status === "requires_action") {
    await recordAuthorizeNeedsAction(db, { id: payment.id, processorPaymentId: found.id, now });
    result = { kind: "requires_action", processorPaymentId: found.id };
  } else {
    result = { kind: "authorized", processorPaymentId: found.id };
  }
  await recordAuthorizeAnswer(db, provider, {
    id,
    email: purchase.email,
    grandTotalCents: purchase.grandTotalCents,
    assistant: (await findClientContact(db, purchase.clientId))!.name,
    payment,
    result,
    now,
    chargesAt: new Date(now.getTime() + chargeDelayMs),
  });
  return true;
};
