/**
 * drop_percent (1.9.0): a price watch or a price alert may give a percentage instead of a price; the
 * target is that much below the item's price when it is set, kept as a price. Pure, integer cents
 * only (server/core/money.ts's habit): rounded down to the cent, so the target is never above what
 * the percentage says (ADR 0116).
 */
import { AppError } from "../core/errors";
import { type Cents, parseCents } from "../core/money";

/** `priceCents` less `percent` percent, rounded down to the cent: 1999 less 15% = 1699.15 -> 1699. */
export const dropTargetCents = (priceCents: Cents, percent: number): Cents => {
  if (
    !Number.isSafeInteger(priceCents) ||
    !Number.isInteger(percent) ||
    percent < 0 ||
    percent > 100
  )
    throw new Error(`bad drop ${priceCents} less ${percent}%`);
  const product = priceCents * (100 - percent);
  return (product - (product % 100)) / 100;
};

/** The target a body gives: its price, or the price its drop_percent makes from `priceCents` (exactly one is given: the schema's rule). */
export const targetCents = (
  input: { price?: string; dropPercent?: number },
  priceCents: Cents,
): Cents =>
  input.price !== undefined
    ? parseCents(input.price)
    : dropTargetCents(priceCents, input.dropPercent!);

/** A watch's max_total must cover its max_price; with drop_percent that is known only once the price is: 422 on max_total. */
export const checkTotalCoversPrice = (maxTotalCents: Cents, maxPriceCents: Cents) => {
  if (maxTotalCents < maxPriceCents)
    throw new AppError("invalid_request", {
      fields: {
        max_total:
          "must be at least max_price (the price drop_percent makes): the total is the price plus shipping and tax",
      },
    });
};
