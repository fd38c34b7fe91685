/**
 * Schemas of the saved card (dashboard only). Imports only zod and pure modules, so the card form
 * can import it. The number and CVC are checked here and passed to the processor once; they are
 * never stored or returned. Wire names are snake_case.
 */
import { z } from "zod";
import { isLuhnValid } from "../payments";

/** A card number as typed: digits, with spaces or dashes between groups; 12-19 digits passing Luhn. */
export const ZCardNumber = z
  .string({ error: "is required" })
  .transform((value) => value.replace(/[\s-]/g, ""))
  .refine((digits) => /^\d{12,19}$/.test(digits), {
    message: "must be 12 to 19 digits",
    abort: true,
  })
  .refine(isLuhnValid, { message: "is not a valid card number (check the digits)" });

export const ZSaveCardInput = z
  .object({
    number: ZCardNumber,
    exp_month: z
      .int({ error: "must be a month from 1 to 12" })
      .min(1, "must be a month from 1 to 12")
      .max(12, "must be a month from 1 to 12"),
    /** Four digits; two (28) are read as 2028. */
    exp_year: z
      .int({ error: "must be a year like 2030" })
      .min(0, "must be a year like 2030")
      .max(2100, "must be a year like 2030")
      .transform((year) => (year < 100 ? 2000 + year : year))
      .refine((year) => year >= 2000, { message: "must be a year like 2030" }),
    cvc: z
      .string({ error: "is required" })
      .trim()
      .regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
  })
  .strict();

const ZSavedCard = z.object({
  /** visa, mastercard, amex, discover, or unknown. */
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number(),
  exp_year: z.number(),
  /** ISO 8601 instant the card was saved. */
  created_at: z.string(),
});
export type TSavedCard = z.infer<typeof ZSavedCard>;

/**
 * What the card page shows: the saved card (null when none), and how a card is entered here:
 * `sandbox_test_cards` (the form takes a sandbox test number) or `processor_form` (production:
 * only the processor's own form may take a card number, and it is not wired yet).
 */
export const ZSavedCardResponse = z.object({
  card: ZSavedCard.nullable(),
  card_entry: z.enum(["sandbox_test_cards", "processor_form"]),
});
export type TSavedCardResponse = z.infer<typeof ZSavedCardResponse>;

/** The card's brand from its leading digits (the processor decides at authorize; this is for display). */
export const cardBrand = (digits: string) => {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  return "unknown";
};
