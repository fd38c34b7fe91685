/**
 * Prices one store's parcel of a cart: item subtotal, the free-shipping offer, every shipping option
 * with the tax lines and totals it would give (tax applies to shipping, so each option has its
 * own), and the default choice (the cheapest). The result is what a quote snapshot stores, so a
 * later shipping change only picks a precomputed option and never prices again.
 */
import { type Cents, sumCents } from "./money";
import type { Province } from "./provinces";
import {
  freeShippingOffer,
  type FreeShippingOffer,
  type ShippingOption,
  type ShippingRate,
  shippingOptions,
} from "./shipping";
import { type TaxLine, taxLines } from "./tax";
import { parcelTotals, type Totals } from "./totals";

export type PricedOption = ShippingOption & { taxLines: TaxLine[]; totals: Totals };

export type PricedParcel = {
  subtotalCents: Cents;
  discountCents: Cents;
  freeShipping: FreeShippingOffer | null;
  options: PricedOption[];
  defaultOptionKey: string;
};

export const priceParcel = (input: {
  lines: readonly { unitPriceCents: Cents; quantity: number }[];
  rates: readonly ShippingRate[];
  freeShippingThresholdCents: Cents | null;
  destination: Province;
  now: Date;
  discountCents?: Cents;
}): PricedParcel => {
  if (input.lines.length === 0) throw new Error("a parcel needs at least one line");
  if (input.rates.length === 0) throw new Error("a store needs at least one shipping service");
  const subtotalCents = sumCents(input.lines.map((line) => line.unitPriceCents * line.quantity));
  const discountCents = input.discountCents ?? 0;
  const itemCount = input.lines.reduce((count, line) => count + line.quantity, 0);
  const offer = freeShippingOffer(input.freeShippingThresholdCents, subtotalCents - discountCents);
  const options = shippingOptions({
    rates: input.rates,
    itemCount,
    province: input.destination,
    offer,
    now: input.now,
  }).map((option) => {
    const lines = taxLines({
      province: input.destination,
      baseCents: subtotalCents - discountCents + option.amountCents,
      now: input.now,
    });
    const taxCents = sumCents(lines.map((line) => line.amountCents));
    return {
      ...option,
      taxLines: lines,
      totals: parcelTotals({
        subtotalCents,
        discountCents,
        shippingCents: option.amountCents,
        taxCents,
      }),
    };
  });
  return {
    subtotalCents,
    discountCents,
    freeShipping: offer,
    options,
    defaultOptionKey: options.find((option) => option.isCheapest)!.key,
  };
};

/**
 * The most the parcels can total, each with its dearest shipping option: what a quote is held to
 * (maxOrderTotalCents), so that no choice of shipping made later can take a stored total past it.
 */
export const largestGrandTotalCents = (parcels: readonly PricedParcel[]): Cents =>
  sumCents(
    parcels.map((parcel) =>
      Math.max(...parcel.options.map((option) => option.totals.grandTotalCents)),
    ),
  );
