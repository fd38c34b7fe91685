/** An amount of CAD in a request body, to integer cents. Imports only zod and the money rules. */
import { z } from "zod";
import { decimalPattern, formatCents, maxAmountCents, parseCents } from "./money";

/**
 * A positive amount in dollars with at most two decimals, as a JSON number (12.34) or a decimal
 * string ("12.34"), checked by string arithmetic (never floating point): 12.345 and "-1" are 422
 * with the reason. Past $1,000,000.00 is a 422 naming the field (the cents fit PostgreSQL's int4). The output is the canonical two-decimal string ("12.30"), so parsing it again
 * (the REST edge, then the procedure) gives the same value; `parseCents` turns it into cents.
 */
export const ZAmountInput = z
  .union([z.number(), z.string()], { error: "must be an amount in CAD like 12.34" })
  .transform((value) =>
    typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim(),
  )
  .refine((value) => !value.startsWith("-"), { message: "must be more than 0.00", abort: true })
  // A plain amount too long for the decimal pattern (1000000000, or 1e+21 as JS prints a huge number)
  // is too big, not malformed: say so, naming the bound.
  .refine((value) => !/^(\d{10,}(\.\d*)?|\d(\.\d+)?e\+\d+)$/i.test(value), {
    message: `must be at most ${formatCents(maxAmountCents)}`,
    abort: true,
  })
  .refine((value) => decimalPattern.test(value), {
    message: "must be an amount in CAD with at most two decimals, like 12.34",
    abort: true,
  })
  .transform(parseCents)
  .refine((cents) => cents > 0, { message: "must be more than 0.00", abort: true })
  // abort: an object-level check (max_total >= max_price) must not run on an amount past the bound:
  // it re-parses the field and a raw 1e9 cents is no decimal amount (issue 24 L1: a 500).
  .refine((cents) => cents <= maxAmountCents, {
    message: `must be at most ${formatCents(maxAmountCents)}`,
    abort: true,
  })
  .transform(formatCents);

/** Money as the API answers it: a decimal string with two decimals, always CAD. */
export const ZMoney = z
  .object({
    amount: z.string().meta({ description: "Decimal string with two decimals", example: "129.00" }),
    currency: z.literal("CAD"),
  })
  .meta({ id: "Money", example: { amount: "129.00", currency: "CAD" } });
