/**
 * Sales tax lines for a store's parcel by destination: HST where harmonized, otherwise GST plus the
 * province's PST or QST. Each line is charged on the same base (items after discount, plus
 * shipping: every Canadian sales tax applies to delivery charges of taxable goods) and rounded once,
 * half-up on integer cents, per store per tax line (docs/adr/0050-pricing-tax-shipping-totals.md).
 */
import { type Cents, percentOfHalfUp } from "./money";
import { localDate, type Province } from "./provinces";
import { earliestTaxDate, rateInForce, type TaxName } from "./tax-rates";

export type TaxLine = {
  name: TaxName;
  jurisdiction: string;
  milliPercent: number;
  rate: string;
  amountCents: Cents;
};

/** 9975 -> "9.975%", 13000 -> "13%". */
export const formatRate = (milliPercent: number): string => {
  const whole = Math.floor(milliPercent / 1000);
  const fraction = String(milliPercent % 1000)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return `${whole}${fraction ? `.${fraction}` : ""}%`;
};

/** The taxes in force for a destination on a date, HST first when harmonized. */
const taxesFor = (province: Province, date: string) => {
  if (date < earliestTaxDate) throw new Error(`no tax rates before ${earliestTaxDate}: ${date}`);
  const provincial = rateInForce(province, date);
  if (provincial?.name === "HST") return [provincial];
  const gst = rateInForce("CA", date)!;
  return provincial ? [gst, provincial] : [gst];
};

/** Tax lines on `baseCents` for a parcel delivered to `province`, priced at `now`. */
export const taxLines = (options: { province: Province; baseCents: Cents; now: Date }): TaxLine[] =>
  taxesFor(options.province, localDate(options.now, options.province)).map((rate) => ({
    name: rate.name,
    jurisdiction: rate.jurisdiction,
    milliPercent: rate.milliPercent,
    rate: formatRate(rate.milliPercent),
    amountCents: percentOfHalfUp(options.baseCents, rate.milliPercent),
  }));
