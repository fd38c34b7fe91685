/**
 * Request and response schemas of the account operations (profile, sizes, shipping address,
 * connected apps). Imports only zod and pure domain rules, so forms and the OpenAPI builder can
 * import it. Wire names are snake_case.
 */
import { z } from "zod";
import { normalizePostalCode, postalCodeMatchesProvince, provinceCodes, provinces } from "../../domain/address";

/** An email address as stored: trimmed and lower-cased. */
export const ZEmail = z
  .string({ error: "is required" })
  .trim()
  .toLowerCase()
  .max(254, "must be at most 254 characters")
  .pipe(z.email({ error: "must be an email address" }));

export const ZPersonName = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters");

/** Saved sizes as the person typed them ("M", "8", "32x34"): at most 20, each up to 20 characters. */
export const ZSizes = z
  .array(z.string().trim().min(1, "must not be empty").max(20, "each size must be at most 20 characters"))
  .max(20, "at most 20 sizes")
  .transform((sizes) => [...new Set(sizes)]);

const line = (max: number) => z.string({ error: "is required" }).trim().min(1, "is required").max(max, `must be at most ${max} characters`);
const optionalLine = (max: number) =>
  z.string().trim().max(max, `must be at most ${max} characters`).nullish().transform((value) => (value ? value : null));

/** A Canadian shipping address; the postal code is normalised (A1A 1A1) and must fit the province. */
export const ZShippingAddressInput = z
  .object({
    name: line(100),
    line1: line(200),
    line2: optionalLine(200),
    city: line(100),
    province: z.enum(provinceCodes, { error: `must be one of ${provinceCodes.join(", ")}` }),
    postal_code: z.string({ error: "is required" }).trim().max(10, "must be a postal code like K1A 0B1"),
    country: z.literal("CA", { error: "must be CA: the stores ship to Canadian addresses only" }).default("CA"),
    phone: optionalLine(30).refine((value) => value === null || /^[+()\d\s.-]{7,30}$/.test(value), "must be a phone number"),
  })
  .strict()
  .transform((input, ctx) => {
    const postalCode = normalizePostalCode(input.postal_code);
    if (!postalCode) {
      ctx.addIssue({ code: "custom", path: ["postal_code"], message: "must be a Canadian postal code like K1A 0B1" });
      return z.NEVER;
    }
    if (!postalCodeMatchesProvince(postalCode, input.province)) {
      ctx.addIssue({ code: "custom", path: ["postal_code"], message: `is not a postal code of ${provinces[input.province]}` });
      return z.NEVER;
    }
    return { ...input, postal_code: postalCode };
  });
export type TShippingAddressInput = z.input<typeof ZShippingAddressInput>;

export const ZMeResponse = z
  .object({
    name: z.string().nullable().meta({ description: "The person's name, when they gave one" }),
    email: z.email(),
    email_verified: z.boolean().meta({ description: "True once the person confirmed the address" }),
    sizes: z.array(z.string()).meta({ description: "Saved sizes as the person typed them; use them as GET /products size filters" }),
  })
  .meta({ id: "Me" });

export const ZShippingAddress = z
  .object({
    name: z.string(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    province: z.enum(provinceCodes).meta({ description: "Province or territory code" }),
    postal_code: z.string().meta({ description: "A1A 1A1", example: "M5V 3L9" }),
    country: z.literal("CA"),
    phone: z.string().nullable(),
  })
  .meta({ id: "ShippingAddress" });

export const ZUpdateProfileInput = z.object({ name: ZPersonName.nullable(), email: ZEmail }).strict();

export const ZDisconnectAppInput = z.object({ client_id: z.string().min(1).max(100) }).strict();

export const ZConnectedApp = z.object({
  client_id: z.string(),
  name: z.string(),
  kind: z.enum(["partner", "agent"]),
  scopes: z.array(z.string()),
  approved_at: z.date(),
});

/** The /me endpoints take no query parameters; an unknown one is a 422 like everywhere in the API. */
export const ZNoQuery = z.object({}).strict();
