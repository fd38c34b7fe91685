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
