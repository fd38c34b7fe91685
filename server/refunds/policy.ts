/**
 * Refund arithmetic, pure (docs/adr/0107). A refund of part of a store order is split over the
 * order's items, shipping and tax in proportion, and the platform's fee is given back in
 * proportion to the items refunded. Splits are computed on the cumulative amount refunded (after
 * this refund, minus before it), so rounding never drifts: a full refund, in one step or many,
 * reverses exactly the sale's items, shipping, tax and fee.
 */
import type { StoreShare } from "../payouts";

type Parts = { itemsCents: number; shippingCents: number; taxCents: number };

/** `refundedCents` of an order spread over its parts by largest remainder (ties: items, shipping, tax). */
export const splitRefunded = (sale: Parts, refundedCents: number): Parts => {
  const parts = [sale.itemsCents, sale.shippingCents, sale.taxCents];
  const total = parts[0] + parts[1] + parts[2];
  if (total === 0 || refundedCents === 0) return { itemsCents: 0, shippingCents: 0, taxCents: 0 };
  const exact = parts.map((part) => refundedCents * part);
  const floors = exact.map((value) => Math.floor(value / total));
  let left = refundedCents - floors.reduce((sum, value) => sum + value, 0);
  const byRemainder = [0, 1, 2].sort((a, b) => (exact[b] % total) - (exact[a] % total) || a - b);
  for (const index of byRemainder) {
    if (left === 0) break;
    if (floors[index] < parts[index]) {
      floors[index]++;
      left--;
    }
  }
  return { itemsCents: floors[0], shippingCents: floors[1], taxCents: floors[2] };
};

/** The fee given back once `itemsRefunded` of the sale's items are refunded, rounded half up. */
const feeBack = (sale: StoreShare, itemsRefunded: number) =>
  sale.itemsCents === 0
    ? 0
    : Math.floor((2 * sale.feeCents * itemsRefunded + sale.itemsCents) / (2 * sale.itemsCents));

/**
 * The ledger row of a refund of `amountCents` after `refundedBeforeCents` were refunded: negative
 * amounts, the store's net reduced by the refund less the fee given back.
 */
export const refundShare = (
  sale: StoreShare,
  options: { refundedBeforeCents: number; amountCents: number },
): StoreShare => {
  const before = splitRefunded(sale, options.refundedBeforeCents);
  const after = splitRefunded(sale, options.refundedBeforeCents + options.amountCents);
  // before - after, never -(after - before): that is -0 when nothing moved.
  const itemsCents = before.itemsCents - after.itemsCents;
  const shippingCents = before.shippingCents - after.shippingCents;
  const taxCents = before.taxCents - after.taxCents;
  const feeCents = feeBack(sale, before.itemsCents) - feeBack(sale, after.itemsCents);
  return {
    itemsCents,
    shippingCents,
    taxCents,
    feeCents,
    netCents: itemsCents + shippingCents + taxCents - feeCents,
  };
};

/** Why a refund of `amountCents` cannot be made, or null: more than is left, or nothing. */
export const refundRefusal = (options: {
  paidCents: number;
  refundedCents: number;
  amountCents: number;
}) => {
  const left = options.paidCents - options.refundedCents;
  if (left <= 0) return "the order is already refunded in full";
  if (!Number.isInteger(options.amountCents) || options.amountCents <= 0)
    return "the amount must be more than 0.00";
  if (options.amountCents > left)
    return `the amount is more than what is left to refund (${left} cents)`;
  return null;
};

/** How long a refund the processor did not answer waits before the next try: 30 s doubling, at most an hour. */
export const refundRetryDelayMs = (attempts: number) =>
  Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
