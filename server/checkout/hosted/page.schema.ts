/**
 * Inputs of the hosted checkout page's procedures. The checkout id in the URL is the capability
 * (96 random bits), so every input carries it. Imports only zod and pure helpers, so the page's
 * forms can import it.
 */
import { z } from "zod";
import { wholeNumber } from "../../core/zod";
import { isLuhnValid } from "../../payments";

export const ZCheckoutRef = z.object({
  id: z.string().regex(/^chk_[0-9a-f]{24}$/, "is not a checkout id"),
});

export const ZSelectShipping = ZCheckoutRef.extend({
  store: z.string().min(1).max(63),
  option: z.string().min(1).max(40),
});

const ZCard = z.object({
  type: z.literal("card"),
  number: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, ""))
    .refine(isLuhnValid, "is not a valid card number"),
  exp_month: wholeNumber(1, 12, "must be a month from 1 to 12"),
  exp_year: wholeNumber(2000, 2100, "must be a year from 2000 to 2100"),
  cvc: z.string().regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
});

const ZLink = z.object({
  type: z.literal("link"),
  email: z.email({ error: "must be an email address" }),
});

/** The language of the page the buyer pays on: their order confirmation is written in it. */
const ZBuyerLanguage = z.enum(["en", "fr"]).optional();

export const ZPay = ZCheckoutRef.extend({
  accept_terms: z.literal(true, { error: "must be accepted to pay" }),
  method: z.discriminatedUnion("type", [ZCard, ZLink]),
  language: ZBuyerLanguage,
});

/** The Payment Element's pay step: the terms, then an intent for Stripe.js to confirm. */
export const ZStartIntent = ZCheckoutRef.extend({
  accept_terms: z.literal(true, { error: "must be accepted to pay" }),
  language: ZBuyerLanguage,
});
/** The page's return from Stripe.js: which PaymentIntent to complete (its state is asked of Stripe). */
export const ZCompleteIntent = ZCheckoutRef.extend({
  payment_intent: z.string().regex(/^pi_\w{1,250}$/, "is not a PaymentIntent id"),
});
export const ZConfirmAuthentication = ZCheckoutRef.extend({
  payment_id: z.string().regex(/^pay_[0-9a-f]{24}$/),
  authenticated: z.boolean(),
});

/**
 * Why an attempt did not pay, as a key the page words in the buyer's language
 * (server/core/messages/<lang>/checkout.json `outcome.<reason>`); `message` is the English.
 */
export type DeclineReason =
  | "card_declined"
  | "authentication_failed"
  | "test_mode_live_card"
  | "declined"
  | "settled"
  | "stopped"
  | "capture_failed";
export type ClosedReason = "lapsed" | "expired" | "cancelled" | "paid";

/** What a payment attempt came to, for the page to show. */
export type PayOutcome =
  | { outcome: "paid"; orderNumber: string }
  | { outcome: "declined"; reason: DeclineReason; message: string; orderNumber?: string }
  | { outcome: "requires_action"; paymentId: string }
  | { outcome: "closed"; reason: ClosedReason; message: string };
