/**
 * Opens a payment attempt on a checkout, under the checkout's row lock: the checkout must still be
 * awaiting payment and in time, its items still listed at the quoted prices (checked again at
 * payment, as the reference requires), and no other attempt may be with the processor. A checkout
 * found lapsed is expired here; one whose items moved is cancelled with the reason, and its items
 * are freed: the person needs a new link either way.
 */
import { type Db, inTransaction, type Tx } from "../../platform/db";
import { AppError } from "../../core/errors";
import { readListings } from "../../catalogue";
import {
  attemptTimeoutMs,
  type HeldPayment,
  openPayment,
  recordRefusedAuthorize,
  releaseOrRetryLater,
} from "../../payments";
import type { PaymentProvider } from "../../payments";
import { moveCheckouts } from "../checkout-transitions";
import {
  countAttempts,
  countAttemptsAuthorizingSince,
  voidAttemptsAwaitingPerson,
} from "../store/borrowed";
import type { Language } from "../../core/locale";
import { linePrices, lockCheckoutRow, writeBuyerLanguage } from "../store/checkouts";
import { refuseAfterDeclines } from "./pay-limits";

/** Locks the checkout's row for the payment's decisions; not_found when there is no such checkout. */
export const lockCheckout = async (tx: Tx, id: string) => {
  const checkout = await lockCheckoutRow(tx, id);
  if (!checkout) throw new AppError("not_found", { message: "No such checkout." });
  return checkout;
};

/** Lines whose item left sale (unlisted), or whose price is no longer the quoted one. */
const movedLines = async (tx: Tx, checkoutId: string) => {
  const lines = await linePrices(tx, checkoutId);
  const listings = await readListings(
    tx,
    lines.map((line) => line.itemId),
  );
  return lines.flatMap((line) => {
    const listing = listings.get(line.itemId);
    const isUnlisted = !listing?.isListed;
    return isUnlisted || listing.priceCents !== line.unitPriceCents
      ? [{ itemId: line.itemId, isUnlisted }]
      : [];
  });
};

type Closed = { closed: { status: "expired" | "cancelled"; reason: string | null } };

export const startAttempt = async (
  db: Db,
  options: {
    checkoutId: string;
    method: string;
    cardLast4: string | null;
    /** The language of the page paid on (the order confirmation's); unchanged when absent. */
    buyerLanguage?: Language;
    now: Date;
  },
) => {
  const { now } = options;
  const result = await inTransaction(
    db,
    async (
      tx,
    ): Promise<
      | Closed
      | {
          payment: {
            id: string;
            checkoutId: string;
            attempt: number;
            amountCents: number;
            abandoned: HeldPayment[];
          };
        }
    > => {
      const checkout = await lockCheckout(tx, options.checkoutId);
      if (checkout.status !== "awaiting_payment")
        throw new AppError("checkout_closed", {
          message: `This checkout is ${checkout.status.replace("_", " ")}.`,
        });
      const close = async (
        status: "expired" | "cancelled",
        reason: string | null,
      ): Promise<Closed> => {
        await moveCheckouts(tx, {
          ids: [checkout.id],
          event: status === "expired" ? "expire" : "cancel",
          now,
          reason,
        });
        return { closed: { status, reason } };
      };
      if (checkout.expiresAt <= now) return close("expired", null);
      const moved = await movedLines(tx, checkout.id);
      if (moved.length)
        return close(
          "cancelled",
          moved.some((line) => line.isUnlisted) ? "item_unavailable" : "price_changed",
        );
      const busy = await countAttemptsAuthorizingSince(
        tx,
        checkout.id,
        new Date(now.getTime() - attemptTimeoutMs),
      );
      if (busy)
        throw new AppError("payment_in_progress", {
          message: "A payment for this checkout is being processed; wait a moment.",
          retryAfter: 2,
        });
      await refuseAfterDeclines(tx, checkout.id);
      // An authentication step (or a Payment Element intent) left open in another tab is abandoned:
      // voided here, and its intent cancelled at the processor by the caller (releaseAbandoned), so a
      // late confirmation of it never places orders (complete-intent.ts releases such a hold).
      const abandoned = await voidAttemptsAwaitingPerson(tx, checkout.id);
      if (options.buyerLanguage) await writeBuyerLanguage(tx, checkout.id, options.buyerLanguage);
      const attempt = (await countAttempts(tx, checkout.id)) + 1;
      const payment = await openPayment(tx, {
        owner: { kind: "checkout", id: checkout.id, attempt },
        method: options.method,
        amountCents: checkout.grandTotalCents,
        cardLast4: options.cardLast4,
        now,
      });
      return {
        payment: {
          ...payment,
          checkoutId: checkout.id,
          abandoned: abandoned.filter((row): row is HeldPayment => row.processorPaymentId !== null),
        },
      };
    },
  );
  if ("closed" in result) {
    const why =
      result.closed.reason === "price_changed"
        ? "a price changed"
        : result.closed.reason === "item_unavailable"
          ? "an item is no longer available"
          : "the link expired";
    throw new AppError("checkout_closed", {
      message: `Nothing was charged: ${why}. Ask the app that sent you here for a new checkout link.`,
      details: result.closed,
    });
  }
  return result.payment;
};

/**
 * Cancels at the processor the intents of attempts a new attempt abandoned (startAttempt voided
 * their rows): nothing held by them may be charged. A processor that cannot answer now leaves the
 * row voided; a late authorization of it is released when it arrives (complete-intent.ts).
 */
export const releaseAbandoned = async (
  db: Db,
  provider: PaymentProvider,
  abandoned: HeldPayment[],
  now: Date,
) => {
  for (const payment of abandoned) await releaseOrRetryLater(db, provider, payment, now);
};

/**
 * The processor refused our own request before any bank was asked (a rolled or restricted key, a
 * request it does not take): nothing exists at the processor, so the attempt is over, recorded as
 * such (not a decline: it does not count toward the checkout's declines), and the person is told
 * plainly instead of meeting a 500; the checkout stays payable.
 */
export const closeRefusedAttempt = async (
  db: Db,
  attempt: { id: string; reason: string; now: Date },
): Promise<never> => {
  await recordRefusedAuthorize(db, attempt);
  throw new AppError("processor_refused", {
    message:
      "The payment service refused this payment before asking your bank. Nothing was charged; try again in a few minutes.",
  });
};
