/**
 * The checkout's closing transitions, each idempotent and safe with several instances: the status
 * only moves from awaiting_payment (a guarded update), and the reservations are given back in the
 * same transaction. The Inngest function, the in-process sweep, the sandbox helper and the cancel
 * endpoint all call these.
 */
import type { Db } from "../../db";
import { release } from "./reservations";

/** Cancels, or expires once due; false when it was not awaiting payment (or not yet due). */
export const closeCheckout = async (db: Db, options: { id: string; to: "cancelled" | "expired"; now: Date; reason?: string }) =>
  db.$transaction(async (tx) => {
    const due = options.to === "expired" ? { expiresAt: { lte: options.now } } : {};
    const moved = await tx.checkout.updateMany({
      where: { id: options.id, status: "awaiting_payment", ...due },
      data: { status: options.to, closedAt: options.now, closedReason: options.reason ?? null },
    });
    if (moved.count === 1) await release(tx, [options.id]);
    return moved.count === 1;
  });

/**
 * Expires every due checkout (a batch at a time). SKIP LOCKED leaves rows another instance, or a
 * payment being finalised, holds: they are decided there, or by the next sweep.
 */
export const expireDueCheckouts = async (db: Db, options: { now: Date; limit?: number }) =>
  db.$transaction(async (tx) => {
    const expired = await tx.$queryRaw<{ id: string }[]>`
      UPDATE checkouts SET status = 'expired', closed_at = ${options.now}, updated_at = ${options.now}
      WHERE id IN (
        SELECT id FROM checkouts WHERE status = 'awaiting_payment' AND expires_at <= ${options.now}
        ORDER BY expires_at LIMIT ${options.limit ?? 100} FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    await release(tx, expired.map((row) => row.id));
    return { expired: expired.length };
  });
