/** Schemas of sign-up, email confirmation and password reset (forms import them too). */
import { z } from "zod";
import { ZEmail, ZPageLocale, ZPersonName } from "../account.schema";

/** At least 10 characters (no composition rules: length is what makes a password strong), at most 200. */
export const ZPassword = z
  .string({ error: "is required" })
  .min(10, "must be at least 10 characters")
  .max(200, "must be at most 200 characters");

export const ZSignUpInput = z
  .object({
    email: ZEmail,
    password: ZPassword,
    name: ZPersonName.nullish().transform((value) => value ?? null),
    locale: ZPageLocale,
  })
  .strict();

export const ZLinkTokenInput = z
  .object({ token: z.string().min(1, "is required").max(2000) })
  .strict();

export const ZRequestPasswordResetInput = z.object({ email: ZEmail, locale: ZPageLocale }).strict();

/** A new confirmation link, asked for from a page (its language, when the person saved none). */
export const ZResendConfirmationInput = z.object({ locale: ZPageLocale }).strict().optional();

export const ZResetPasswordInput = z
  .object({ token: z.string().min(1).max(2000), password: ZPassword })
  .strict();
