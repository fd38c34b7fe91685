/**
 * What a person is shown of a purchase's refunds, on the dashboard and on the cancel page an email
 * links to: what reached the card, what is on its way, and what the bank sent back (with its date
 * and the bank's reason as a key the pages word; docs/adr/0140).
 */
import { toMoney } from "../core/money";
import { refundSentBackReasonKey } from "../core/messages";
import type { PurchaseRefunds } from "./store";

export const refundView = (refunds: PurchaseRefunds | undefined) => ({
  refunded: refunds?.returnedCents ? toMoney(refunds.returnedCents) : null,
  refund_on_its_way: refunds?.onItsWayCents ? toMoney(refunds.onItsWayCents) : null,
  refund_sent_back: refunds?.sentBack
    ? {
        amount: toMoney(refunds.sentBack.cents),
        at: refunds.sentBack.at.toISOString(),
        reason: refundSentBackReasonKey(refunds.sentBack.reason),
      }
    : null,
});
