/**
 * Totals in the reference's shape, per store and overall, always satisfying
 * subtotal - discount + shipping + tax = grand_total exactly (integer cents, no rounding after the
 * tax lines are rounded).
 */
import { type Cents, sumCents, toMoney } from "./money";

export type Totals = {
  subtotalCents: Cents;
  discountCents: Cents;
  shippingCents: Cents;
  taxCents: Cents;
  grandTotalCents: Cents;
};

/** Totals of one parcel from its parts; the grand total is derived, never stored apart from them. */
export const parcelTotals = (parts: {
  subtotalCents: Cents;
  discountCents: Cents;
  shippingCents: Cents;
  taxCents: Cents;
}): Totals => ({
  ...parts,
  grandTotalCents: parts.subtotalCents - parts.discountCents + parts.shippingCents + parts.taxCents,
});

/** Member-wise sum: the sum of totals that each obey the rule obeys it too. */
export const addTotals = (list: readonly Totals[]): Totals => ({
  subtotalCents: sumCents(list.map((totals) => totals.subtotalCents)),
  discountCents: sumCents(list.map((totals) => totals.discountCents)),
  shippingCents: sumCents(list.map((totals) => totals.shippingCents)),
  taxCents: sumCents(list.map((totals) => totals.taxCents)),
  grandTotalCents: sumCents(list.map((totals) => totals.grandTotalCents)),
});

/** True when the reference's rule holds. */
export const totalsBalance = (totals: Totals) =>
  totals.subtotalCents - totals.discountCents + totals.shippingCents + totals.taxCents ===
  totals.grandTotalCents;

/** Wire shape: five Money members. */
export const toWireTotals = (totals: Totals) => ({
  subtotal: toMoney(totals.subtotalCents),
  discount: toMoney(totals.discountCents),
  shipping: toMoney(totals.shippingCents),
  tax: toMoney(totals.taxCents),
  grand_total: toMoney(totals.grandTotalCents),
});
