/**
 * Charging a held purchase at charges_at, exactly once, whoever runs it (the sleeping Inngest
 * function, the sweep, both at once, or a retried step):
 * - before charging, an item sold elsewhere releases the hold (cancelled, reason item_sold), and a
 *   copy email not delivered by charges_at does too (cancelled, reason notice_undelivered; only
 *   an SMTP server's acceptance counts, and the sandbox mailbox in the sandbox: server/platform/mail/delivery.ts);
 * - the charge is claimed with one guarded move held -> capturing (only one worker wins it; a
 *   cancel after that is too late), then captured with key `pur_x:capture`. A purchase found
 *   `capturing` (a retried step, or a worker that stopped after claiming) is captured again with the
 *   same key: the processor replays the first answer, or reports it already captured, which counts
 *   as success. Then capturing -> paid with charges_at null, and the email, in one transaction.
 * - a processor that reports the hold released (it lapsed) moves it to refused (hold_expired) and
 *   the person is told; a processor that fails leaves it capturing and throws, for the step's retry
 *   or the next sweep, a bounded number of times with backoff (server/payments/capture-retries.ts).
 */
import { type Db, inTransaction } from "../platform/db";
import { isEmailDelivered, sandboxMailboxCounts } from "../platform/mail/delivery";
import { readPaymentOutcomeOfPurchase } from "../payments";
import { attemptTimeoutMs, type CaptureOutcome, capturePayment } from "../payments";
import type { PaymentProvider } from "../payments";
import type { QuoteSnapshot } from "../checkout";
import { hasItemNotActive } from "../catalogue";
import { cancelHeld, heldPaymentOf } from "./purchase-hold";
import { copyEmailKey, writeClosedEmail } from "./purchase-emails";
import { movePurchase } from "./purchase-writer";
import { logger } from "../platform/observability/log";
import { count } from "../platform/observability/metrics";
import { findChargeablePurchase, listDuePurchases } from "./store/purchases";

export type ChargeOutcome =
  | "paid"
  | "cancelled"
  | "refused"
  | "not_due"
  | "not_held"
  | "claimed_elsewhere"
  | "capture_failed";

type Options = {
  now: Date;
  provider: PaymentProvider;
  /** The sandbox mailbox (no SMTP) counts as delivered; defaults to server/mail's rule (sandbox without SMTP_URL only). */ sandboxMailbox?: boolean;
};

/** True when an item of the purchase's quote is no longer for sale (sold elsewhere, or removed). */
const hasSoldItem = async (db: Db, snapshot: QuoteSnapshot) => {
  const itemIds = snapshot.stores.flatMap((store) => store.lines.map((line) => line.itemId));
  return hasItemNotActive(db, itemIds);
};

/** The copy email with the cancel link reached the person: accepted by SMTP, or (sandbox mailbox, sandbox only) written. */
const isNoticeDelivered = (db: Db, purchaseId: string, sandboxMailbox: boolean) =>
  isEmailDelivered(db, copyEmailKey(purchaseId), sandboxMailbox);

/** The capture's outcome as the payment row recorded it (a retry after the capture, or the lapse, was recorded). */
const recordedCapture = ({
  status,
  declineCode,
}: {
  status: string;
  declineCode: string | null;
}): CaptureOutcome =>
  status === "captured"
    ? "captured"
    : declineCode === "capture_retries_exhausted"
      ? "retries_exhausted"
      : status === "capture_failed" || status === "voided"
        ? "hold_released"
        : "later";

/** Charges one purchase if it is held and due (or was left capturing); idempotent. */
export const chargeDuePurchase = async (
  db: Db,
  id: string,
  options: Options,
): Promise<{ id: string; outcome: ChargeOutcome }> => {
  const { now, provider } = options;
  const purchase = await findChargeablePurchase(db, id);
  if (!purchase) throw new Error(`no purchase ${id}`);
  if (purchase.status === "held") {
    if (!purchase.chargesAt || purchase.chargesAt > now) return { id, outcome: "not_due" };
    if (await hasSoldItem(db, purchase.snapshot)) {
      return {
        id,
        outcome: (await cancelHeld(db, provider, { id, event: "item_sold", now }))
          ? "cancelled"
          : "claimed_elsewhere",
      };
    }
    if (!(await isNoticeDelivered(db, id, options.sandboxMailbox ?? sandboxMailboxCounts()))) {
      return {
        id,
        outcome: (await cancelHeld(db, provider, { id, event: "notice_undelivered", now }))
          ? "cancelled"
          : "claimed_elsewhere",
      };
    }
    if (!(await movePurchase(db, { id, event: "claim_charge", now })))
      return { id, outcome: "claimed_elsewhere" };
  } else if (purchase.status !== "capturing") {
    return { id, outcome: "not_held" };
  }
  const payment = await heldPaymentOf(db, id);
  // No hold left on the payment row: a retry after the capture (or the lapse) was recorded there.
  const outcome = payment
    ? await capturePayment(db, provider, payment, now)
    : recordedCapture(await readPaymentOutcomeOfPurchase(db, id));
  if (outcome === "later")
    throw new Error(`capture of purchase ${id} did not answer; retried later`);
  // Retries spent (capture-retries.ts): the payment is capture_failed for the operator; the purchase stays capturing, untouched.
  if (outcome === "retries_exhausted") {
    // Counted by the run that made the move; a later run only reads it back.
    if (payment) count("shopping_purchases_total", { outcome: "capture_failed" });
    return { id, outcome: "capture_failed" };
  }
  await inTransaction(db, async (tx) => {
    if (
      !(await movePurchase(tx, {
        id,
        event: outcome === "captured" ? "charged" : "charge_failed",
        now,
      }))
    )
      return;
    await writeClosedEmail(tx, id, outcome === "captured" ? "charged" : "hold_expired", now);
  });
  return { id, outcome: outcome === "captured" ? "paid" : "refused" };
};

/**
 * The sweep's due-work task: every held purchase whose charges_at has passed, and every purchase
 * left capturing longer than a processor call takes (its worker stopped), a batch at a time.
 */
export const chargeDuePurchases = async (db: Db, options: Options & { limit?: number }) => {
  const { now } = options;
  const due = await listDuePurchases(db, {
    now,
    staleBefore: new Date(now.getTime() - attemptTimeoutMs),
    take: options.limit ?? 20,
  });
  const counts: Partial<Record<ChargeOutcome | "failed", number>> = {};
  for (const { id } of due) {
    const outcome = await chargeDuePurchase(db, id, options).then(
      (result) => result.outcome,
      (error: unknown) => {
        logger.warn(
          { purchase_id: id, error: (error as Error).message },
          "purchase charge failed; retried later",
        );
        return "failed" as const;
      },
    );
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
};
