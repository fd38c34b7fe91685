/**
 * Money is integer cents inside the service; the wire format is a two-decimal string in CAD.
 * Nothing here uses floating point arithmetic.
 */
export type Cents = number;
export type Money = { amount: string; currency: "CAD" };

/** 1250 -> "12.50"; -5 -> "-0.05". */
export const formatCents = (cents: Cents): string => {
  if (!Number.isSafeInteger(cents)) throw new Error(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
};

export const toMoney = (cents: Cents): Money => ({ amount: formatCents(cents), currency: "CAD" });

/**
 * The largest single amount the service accepts: $1,000,000.00. An item's price (the sandbox and
 * ops repricing, a listed item) and every amount a person or partner types (a watch's max_price and
 * max_total, an alert's target) are refused past it (core/money-input.ts, 422 naming the field).
 */
export const maxAmountCents: Cents = 100_000_000;

/**
 * The most one order may total, grand_total with its dearest shipping: $10,000,000.00. A quote past
 * it is refused where its totals are made (server/checkout/create-quote.ts, 422 naming `items`), so
 * every total stored from a quote (checkout, store order, purchase, ledger, refund) fits the
 * PostgreSQL int4 its column is (2,147,483,647), with room for twice over. Without it 22 items at
 * the largest price quoted fine and their checkout's insert failed (a 500). See docs/adr/0141.
 */
export const maxOrderTotalCents: Cents = 1_000_000_000;

/** Accepted decimal input: digits with at most two decimals, e.g. "12", "12.5", "12.50". */
export const decimalPattern = /^\d{1,9}(\.\d{1,2})?$/;

/** "12.5" -> 1250, by string arithmetic. Throws on anything decimalPattern refuses. */
export const parseCents = (input: string): Cents => {
  if (!decimalPattern.test(input)) throw new Error(`not a decimal amount: ${input}`);
  const [whole, fraction = ""] = input.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
};

/**
 * `milliPercent` thousandths of a percent of `cents`, rounded half-up to a whole cent, in integers
 * only: 1999 at 13% (13000) = 259.87 -> 260. Negative bases round away from zero symmetrically.
 */
export const percentOfHalfUp = (cents: Cents, milliPercent: number): Cents => {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(milliPercent) || milliPercent < 0)
    throw new Error(`bad tax input ${cents} x ${milliPercent}`);
  const product = BigInt(Math.abs(cents)) * BigInt(milliPercent);
  const rounded = Number((product + 50_000n) / 100_000n);
  return cents < 0 ? -rounded : rounded;
};

/** Sum of whole cents (throws past the safe integer range rather than losing a cent). */
export const sumCents = (values: readonly Cents[]): Cents => {
  const total = values.reduce((sum, value) => sum + value, 0);
  if (!Number.isSafeInteger(total)) throw new Error("sum of cents overflowed");
  return total;
};
