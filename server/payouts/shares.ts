/**
 * A store's share of a captured payment, pure (docs/adr/0106): what it sold (items less discount),
 * its shipping and tax (the store remits the tax), the platform's fee on its items, and the net it
 * is owed. Integer cents throughout; the fee is rounded half up, once per order.
 */

/** One store's order as the ledger reads it. */
export type OrderAmounts = {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
};

export type StoreShare = {
  itemsCents: number;
  shippingCents: number;
  taxCents: number;
  feeCents: number;
  netCents: number;
};

/** The platform's fee: `bps` basis points of `itemsCents`, rounded half up (exact in doubles below 2^53). */
export const platformFee = (itemsCents: number, bps: number) => {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
    throw new RangeError(`platform fee of ${bps} basis points is outside 0..10000`);
  return Math.floor((itemsCents * bps + 5_000) / 10_000);
};

export const storeShare = (order: OrderAmounts, feeBps: number): StoreShare => {
  const itemsCents = order.subtotalCents - order.discountCents;
  const feeCents = platformFee(itemsCents, feeBps);
  return {
    itemsCents,
    shippingCents: order.shippingCents,
    taxCents: order.taxCents,
    feeCents,
    netCents: itemsCents + order.shippingCents + order.taxCents - feeCents,
  };
};

/** "12.5" (percent) to basis points, exactly: at most two decimals, 0 to 100. */
export const percentToBps = (percent: string) => {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percent.trim());
  const bps = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  return Number.isInteger(bps) && bps <= 10_000 ? bps : null;
};

/** After `attempts` failed transfers, how long until the next try: 30 s doubling, at most 6 hours. */
export const transferRetryDelayMs = (attempts: number) =>
  Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
