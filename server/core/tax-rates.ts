/**
 * The one table of Canadian sales tax rates, each with the local date it took effect in the
 * destination province (a rate applies from 00:00 that day in the province's time zone). Rates are
 * in thousandths of a percent so QST's 9.975% stays an integer. Sources: CRA GST/HST rate tables,
 * CRA Notice 342 (Nova Scotia), Revenu Québec, the BC, Manitoba and Saskatchewan finance ministries.
 *
 * The marketplace sells clothing and footwear and treats every item as taxable at the general rate;
 * point-of-sale exemptions for children's clothing (ON, BC, MB, NS, PE provincial parts) and PEI's
 * clothing rebate are not modelled (docs/adr/0050-pricing-tax-shipping-totals.md).
 */
import type { Province } from "./provinces";

export type TaxName = "GST" | "HST" | "PST" | "QST";

/** One tax charged in a jurisdiction from a date until the next entry for the same jurisdiction and name. */
export type TaxRate = {
  jurisdiction: "CA" | Province;
  name: TaxName;
  milliPercent: number;
  from: string;
};

/** Federal GST applies everywhere HST does not. */
const gstRates: TaxRate[] = [
  { jurisdiction: "CA", name: "GST", milliPercent: 5000, from: "2008-01-01" },
];

const provincialRates: TaxRate[] = [
  // Harmonized (replaces GST in the province)
  { jurisdiction: "ON", name: "HST", milliPercent: 13000, from: "2010-07-01" },
  { jurisdiction: "NS", name: "HST", milliPercent: 15000, from: "2010-07-01" },
  { jurisdiction: "NS", name: "HST", milliPercent: 14000, from: "2025-04-01" },
  { jurisdiction: "NB", name: "HST", milliPercent: 13000, from: "2008-01-01" },
  { jurisdiction: "NB", name: "HST", milliPercent: 15000, from: "2016-07-01" },
  { jurisdiction: "NL", name: "HST", milliPercent: 13000, from: "2008-01-01" },
  { jurisdiction: "NL", name: "HST", milliPercent: 15000, from: "2016-07-01" },
  { jurisdiction: "PE", name: "HST", milliPercent: 14000, from: "2013-04-01" },
  { jurisdiction: "PE", name: "HST", milliPercent: 15000, from: "2016-10-01" },
  // BC had HST 12% from 2010-07-01 and returned to GST + PST on 2013-04-01.
  { jurisdiction: "BC", name: "HST", milliPercent: 12000, from: "2010-07-01" },
  { jurisdiction: "BC", name: "PST", milliPercent: 7000, from: "2013-04-01" },
  // Provincial taxes charged beside GST, on the price before GST (QST too, since 2013).
  { jurisdiction: "MB", name: "PST", milliPercent: 8000, from: "2013-07-01" },
  { jurisdiction: "MB", name: "PST", milliPercent: 7000, from: "2019-07-01" },
  { jurisdiction: "SK", name: "PST", milliPercent: 5000, from: "2006-10-28" },
  { jurisdiction: "SK", name: "PST", milliPercent: 6000, from: "2017-03-23" },
  { jurisdiction: "QC", name: "QST", milliPercent: 9975, from: "2013-01-01" },
];

/** The earliest date the table can price; older dates are refused rather than guessed. */
export const earliestTaxDate = "2013-04-01";

/** The entry in force on `date` for a jurisdiction (latest `from` not after the date), if any. */
export const rateInForce = (
  jurisdiction: TaxRate["jurisdiction"],
  date: string,
): TaxRate | undefined =>
  [...gstRates, ...provincialRates]
    .filter((rate) => rate.jurisdiction === jurisdiction && rate.from <= date)
    .sort((a, b) => (a.from < b.from ? 1 : -1))[0];
