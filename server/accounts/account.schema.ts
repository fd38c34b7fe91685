/**
 * Request and response schemas of the account operations (profile, sizes, shipping address,
 * connected apps, spending limits). Imports only zod and pure modules, so forms and the OpenAPI
 * builder can import it. The shipping address is the one Canadian address schema
 * (server/core/address.ts). Wire names are snake_case.
 */
import { z } from "zod";
import { languages, locales } from "../core/locale";
import { decimalPattern, formatCents, parseCents } from "../core/money";
import { maxSpendingLimitCents } from "../core/spending-limits";
import { ZMoney } from "../core/money-input";

/** An email address as stored: trimmed and lower-cased. */
export const ZEmail = z
  .string({ error: "is required" })
  .trim()
  .toLowerCase()
  .max(254, "must be at most 254 characters")
  .pipe(z.email({ error: "must be an email address" }));

export const ZPersonName = z
  .string()
  .trim()
  .min(1, "is required")
  .max(100, "must be at most 100 characters");

/** Saved sizes as the person typed them ("M", "8", "32x34"): at most 20, each up to 20 characters. */
export const ZSizes = z
  .array(
    z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(20, "each size must be at most 20 characters"),
  )
  .max(20, "at most 20 sizes")
  .transform((sizes) => [...new Set(sizes)]);

export const ZMeResponse = z
  .object({
    name: z
      .string()
      .nullable()
      .meta({ description: "The person's name, when they gave one", example: "Ana Tremblay" }),
    email: z.email().meta({ example: "ana@example.ca" }),
    email_verified: z.boolean().meta({ description: "True once the person confirmed the address" }),
    sizes: z.array(z.string()).meta({
      description: "Saved sizes as the person typed them; use them as GET /products size filters",
      example: ["M", "8"],
    }),
  })
  .meta({ id: "Me" });

/**
 * The language of the page a person asked from ("en-CA" | "fr-CA"): an account email they asked
 * for is written in it when they saved no language of their own.
 */
export const ZPageLocale = z.enum(locales, { error: "must be en-CA or fr-CA" }).optional();

export const ZUpdateProfileInput = z
  .object({ name: ZPersonName.nullable(), email: ZEmail, locale: ZPageLocale })
  .strict();

/** The language of the person's pages and emails. */
export const ZSetLanguageInput = z
  .object({ language: z.enum(languages, { error: "must be en or fr" }) })
  .strict();

/** What the account pages read besides the profile: the saved language (null: none) and the person's zone. */
export const ZPreferencesResponse = z.object({
  language: z.enum(languages).nullable(),
  time_zone: z.string(),
});

/** client_id: a registered id, or the URL of a client metadata document (up to 2,000 characters). */
export const ZDisconnectAppInput = z.object({ client_id: z.string().min(1).max(2000) }).strict();

export const ZConnectedApp = z.object({
  client_id: z.string(),
  name: z.string(),
  kind: z.enum(["partner", "agent"]),
  scopes: z.array(z.string()),
  approved_at: z.date(),
});

/** The /me endpoints take no query parameters; an unknown one is a 422 like everywhere in the API. */
export const ZNoQuery = z.object({}).strict();

/** A spending limit as typed: dollars with at most two decimals ("500", "500.00"), more than 0 and at most $50,000.00; in cents. */
const ZSpendingLimit = z
  .string({ error: "is required" })
  .trim()
  .refine((value) => !value.startsWith("-"), { message: "must be more than 0.00", abort: true })
  .refine((value) => decimalPattern.test(value), {
    message: "must be an amount in dollars with at most two decimals, like 500.00",
    abort: true,
  })
  .transform(parseCents)
  .refine((cents) => cents > 0, { message: "must be more than 0.00", abort: true })
  .refine((cents) => cents <= maxSpendingLimitCents, {
    message: `must be at most ${formatCents(maxSpendingLimitCents)}`,
    abort: true,
  });

/** Both limits at once; the per-order limit may not exceed the 30-day one. */
export const ZSetSpendingLimitsInput = z
  .object({ limit_per_order: ZSpendingLimit, limit_per_30_days: ZSpendingLimit })
  .strict()
  .refine((input) => input.limit_per_order <= input.limit_per_30_days, {
    message: "must not be more than the limit per 30 days",
    path: ["limit_per_order"],
  });

export const ZSetPurchasesPausedInput = z
  .object({ paused: z.boolean({ error: "must be true or false" }) })
  .strict();

/** What the dashboard shows: the limits (null = not set) and whether assistant purchases are paused. */
export const ZSpendingSettingsResponse = z.object({
  limit_per_order: ZMoney.nullable(),
  limit_per_30_days: ZMoney.nullable(),
  purchases_paused: z.boolean(),
  /** ISO 8601 instant of the last pause or resume; null if never changed. */
  paused_changed_at: z.string().nullable(),
});
export type TSpendingSettingsResponse = z.infer<typeof ZSpendingSettingsResponse>;
