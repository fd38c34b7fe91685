/**
 * A purchase left `processing` because the bank's answer to its authorize was lost (the sandbox's
 * late card, 4000 0000 0000 0408), completed once the answer is known: the processor is asked by
 * the authorize key (never a second authorize) and its answer recorded as createPurchaseWithHold
 * would have: a hold → held (charges_at 24 h from now, the copy email now); a decline → requires_person
 * (card_declined); an authentication step → released, requires_person. Used by the sandbox helper
 * POST /sandbox/purchases/{id}/resolve; the sweep's reconcilePurchases still refuses a purchase
 * nobody completed within 60 s (bank_no_answer). Both move processing with a guarded move, so only
 * one of them wins; a hold under a purchase the sweep refused is released by the sweep.
 */
import type { Db } from "../platform/db";
import type { AuthorizeResult } from "../payments";
import { type PaymentProvider, processorKey } from "../payments";
import { chargeDelayMs, recordAuthorizeAnswer } from "./create-purchase";

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
  const purchase = await db.purchase.findUnique({
    where: { id },
    select: {
      status: true,
      email: true,
      grandTotalCents: true,
      client: { select: { name: true } },
      payment: {
        select: { id: true, checkoutId: true, purchaseId: true, attempt: true, status: true },
      },
    },
  });
  if (purchase?.status !== "processing" || purchase.payment?.status !== "authorizing") return false;
  const payment = purchase.payment;
  const found = await provider.retrieve(
    options.processorPaymentId
      ? { paymentId: options.processorPaymentId }
      : { authorizeKey: processorKey({ kind: "purchase", id }, "authorize") },
  );
  if (!found || found.status === "voided" || found.status === "captured") return false;
  let result: AuthorizeResult;
  if (found.status === "declined") {
    await db.payment.updateMany({
      where: { id: payment.id, status: "authorizing" },
      data: {
        status: "declined",
        declineCode: found.declineCode,
        processorPaymentId: found.id,
        updatedAt: now,
      },
    });
    result = { kind: "declined", declineCode: found.declineCode };
  } else if (found.status === "requires_action") {
    await db.payment.updateMany({
      where: { id: payment.id, status: "authorizing" },
      data: { status: "requires_action", processorPaymentId: found.id, updatedAt: now },
    });
    result = { kind: "requires_action", processorPaymentId: found.id };
  } else {
    result = { kind: "authorized", processorPaymentId: found.id };
  }
  await recordAuthorizeAnswer(db, provider, {
    id,
    email: purchase.email,
    grandTotalCents: purchase.grandTotalCents,
    assistant: purchase.client.name,
    payment,
    result,
    now,
    chargesAt: new Date(now.getTime() + chargeDelayMs),
  });
  return true;
};
