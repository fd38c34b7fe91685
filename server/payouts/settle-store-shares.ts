/**
 * Pays stores their shares (docs/adr/0106), in two steps that are each safe to repeat and safe on
 * several instances, run by the sweep (`settle-store-shares`):
 * 1. write the ledger: each order of a captured payment gets its `sale` row (items, shipping, tax,
 *    fee, net), once (unique per order and kind);
 * 2. transfer: each `sale` row not yet transferred is sent to the store's connected account with
 *    the key `<payment id>:transfer:<store id>`, outside any transaction; a processor that does not
 *    answer, or refuses, leaves the row pending with its reason and a later try (the same key:
 *    never a second transfer). A store disconnected since waits the same way. A row tried before
 *    first asks the processor for a transfer made for it (its metadata names the row): a key older
 *    than the processor keeps it (a day at Stripe) would make a second one.
 * 3. reverse: each `refund` row takes the store's part of the refund back from the sale's transfer
 *    (key `<refund id>:reversal`), once that transfer is made; the sale always transfers its whole
 *    net, so its key's request never changes (docs/adr/0107).
 */
import type { Db } from "../platform/db";
import {
  isProcessorRefusal,
  isUnknownOutcome,
  type PaymentProvider,
  transferKey,
} from "../payments";
import { storeShare, transferRetryDelayMs } from "./shares";
import {
  findDueReversals,
  findDueTransfers,
  findUnledgeredOrders,
  insertSaleEntries,
  type PendingTransfer,
  recordTransferWaiting,
  recordTransferred,
} from "./store";

type Options = { now: Date; provider: PaymentProvider; limit?: number };

export const settleStoreShares = async (db: Db, options: Options) => {
  const ledgered = await writeSaleEntries(db, options);
  const transferred = await transferDueShares(db, options);
  const reversed = await reverseRefundedShares(db, options);
  return { ledgered, transferred, reversed };
};

/** Step 1: the ledger rows of captured payments' orders. */
const writeSaleEntries = async (db: Db, { now, limit = 200 }: Options) => {
  const orders = await findUnledgeredOrders(db, { now, limit });
  if (!orders.length) return 0;
  return insertSaleEntries(
    db,
    orders.map((order) => ({
      orderId: order.orderId,
      paymentId: order.paymentId,
      storeId: order.storeId,
      capturedAt: order.capturedAt,
      ...storeShare(order, order.feeBps),
    })),
  );
};

/** Step 2: the transfers due; the number that went through. */
const transferDueShares = async (db: Db, { now, provider, limit = 50 }: Options) => {
  let sent = 0;
  for (const share of await findDueTransfers(db, { now, limit })) {
    const outcome = await transferShare(provider, share);
    if ("transferId" in outcome) {
      await recordTransferred(db, { id: share.id, transferId: outcome.transferId, now });
      sent++;
    } else {
      const nextAt = new Date(now.getTime() + transferRetryDelayMs(share.transferAttempts + 1));
      await recordTransferWaiting(db, { id: share.id, reason: outcome.waiting, nextAt });
    }
  }
  return sent;
};

const transferShare = async (
  provider: PaymentProvider,
  share: PendingTransfer,
): Promise<{ transferId: string | null } | { waiting: string }> => {
  // A 100% fee on a sale with no shipping leaves nothing to send.
  if (share.netCents === 0) return { transferId: null };
  if (!share.payoutAccount) return { waiting: "not_connected" };
  if (!share.processorPaymentId) return { waiting: "no_processor_payment" };
  try {
    // Tried before: the processor may have made it with its answer lost, under a key it has since forgotten.
    if (share.transferAttempts > 0) {
      const made = await provider.findTransfer({
        ledgerEntryId: share.id,
        transferGroup: share.transferGroup,
      });
      if (made) return { transferId: made.id };
    }
    const transfer = await provider.transfer({
      // A sale's key is the payment's; a won dispute's (or failed refund's) share goes again under its own.
      idempotencyKey:
        share.kind === "sale"
          ? transferKey(share.paymentId, share.storeId)
          : `${share.sourceId}:restore:${share.storeId}`,
      destination: share.payoutAccount,
      amountCents: share.netCents,
      // A sale is funded by its charge; a share given back, by the balance the dispute or the bank returned.
      sourcePaymentId: share.kind === "sale" ? share.processorPaymentId : undefined,
      transferGroup: share.transferGroup,
      metadata: { ledger_entry: share.id, order: share.orderNumber, payment: share.paymentId },
    });
    return { transferId: transfer.id };
  } catch (error) {
    if (isProcessorRefusal(error)) return { waiting: `refused: ${error.message}` };
    if (isUnknownOutcome(error)) return { waiting: "processor_unanswered" };
    throw error;
  }
};

/** Step 3: the reversals due of refunded shares; the number made. */
const reverseRefundedShares = async (db: Db, { now, provider, limit = 50 }: Options) => {
  let reversed = 0;
  for (const share of await findDueReversals(db, { now, limit })) {
    // The sale's transfer is not made yet: it goes first, whole, and this follows.
    if (share.saleStatus !== "transferred") continue;
    const amountCents = -share.netCents;
    if (amountCents <= 0 || !share.saleTransferId) {
      await recordTransferred(db, { id: share.id, transferId: null, now });
      continue;
    }
    try {
      const reversal =
        (share.transferAttempts > 0
          ? await provider.findReversal({
              ledgerEntryId: share.id,
              transferId: share.saleTransferId,
            })
          : null) ??
        (await provider.reverseTransfer({
          idempotencyKey: `${share.refundId}:reversal:${share.storeId}`,
          transferId: share.saleTransferId,
          amountCents,
          metadata: { ledger_entry: share.id, refund: share.refundId },
        }));
      await recordTransferred(db, { id: share.id, transferId: reversal.id, now });
      reversed++;
    } catch (error) {
      const waiting = isProcessorRefusal(error)
        ? `refused: ${error.message}`
        : isUnknownOutcome(error)
          ? "processor_unanswered"
          : null;
      if (!waiting) throw error;
      const nextAt = new Date(now.getTime() + transferRetryDelayMs(share.transferAttempts + 1));
      await recordTransferWaiting(db, { id: share.id, reason: waiting, nextAt });
    }
  }
  return reversed;
};
