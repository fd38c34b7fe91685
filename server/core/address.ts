/**
 * What a Canadian shipping address is, in one place: the account's saved address, a quote's
 * shipping address and an assistant's purchase (which compares the two) all parse with
 * `ZCanadianAddressSchema`, so a spelling accepted by one is accepted, and stored the same, by all.
 *
 * Postal codes: upper or lower case, surrounding spaces ignored, the two halves (A1A and 1A1)
 * written together or separated by spaces and at most one hyphen (`K1A 0B1`, `k1a0b1`, `K1A-0B1`,
 * `K1A  0B1`); stored and answered as `A1A 1A1`. Canada Post never uses D, F, I, O, Q or U, and W and
 * Z never start a code. The first letter must belong to the province: tax follows the province, and
 * the check catches most typos before a parcel is misrouted.
 */
import { z } from "zod";
import { provinceCodes, provinces, type Province } from "./provinces";

const postalPattern = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])\s*-?\s*(\d[ABCEGHJ-NPRSTV-Z]\d)$/;

/** "k1a0b1", "K1A-0B1" → "K1A 0B1"; undefined when it is not a well-formed Canadian postal code. */
export const normalizePostalCode = (value: string): string | undefined => {
  const match = postalPattern.exec(value.trim().toUpperCase());
  return match ? `${match[1]} ${match[2]}` : undefined;
};

/** True when a normalised postal code can belong to the province (its first letter). */
export const postalCodeMatchesProvince = (postalCode: string, province: Province) =>
  provinces[province].postalLetters.includes(postalCode[0]);

const line = (max: number) =>
  z
    .string({ error: "is required" })
    .trim()
    .min(1, "is required")
    .max(max, `must be at most ${max} characters`);
const optionalLine = (max: number) =>
  z
    .string({ error: "must be a string" })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((value) => value || null);
const upperCode = (error: string) => z.string({ error }).trim().toUpperCase();

/** The address the reference page shows, sent and answered alike (already normalised). */
const addressExample = {
  name: "Ana Tremblay",
  line1: "100 Queen St W",
  line2: "Suite 400",
  city: "Toronto",
  province: "ON",
  postal_code: "M5H 2N2",
  country: "CA",
  phone: "416-555-0142",
};

/**
 * A Canadian shipping address as partners, forms and the ops CLI send it. Province and country are
 * read in any case; `country` may be left out (CA); empty optional lines become null. Field-level
 * messages name `province`, `postal_code` and the other members, for the 422 `fields`.
 */
export const ZCanadianAddressSchema = z
  .object({
    name: line(100),
    line1: line(200),
    line2: optionalLine(200),
    city: line(100),
    province: upperCode("must be a province or territory code")
      .pipe(z.enum(provinceCodes, { error: `must be one of ${provinceCodes.join(", ")}` }))
      .meta({
        description: `Province or territory code, in any case: ${provinceCodes.join(", ")}`,
        example: "ON",
      }),
    postal_code: z
      .string({ error: "must be a Canadian postal code like K1A 0B1" })
      .max(20, "must be a Canadian postal code like K1A 0B1")
      .meta({
        description:
          "Answered as A1A 1A1; any case, the halves together or apart (spaces, one hyphen); its first letter must belong to the province",
        example: "K1A 0B1",
      }),
    country: upperCode("must be CA")
      .pipe(z.literal("CA", { error: "must be CA: the stores ship to Canadian addresses only" }))
      .default("CA")
      .meta({ description: "CA (the default): the stores ship within Canada only" }),
    phone: optionalLine(30).refine(
      (value) => value === null || /^[+()\d\s.-]{7,30}$/.test(value),
      "must be a phone number",
    ),
  })
  .strict()
  .transform((input, ctx) => {
    const postalCode = normalizePostalCode(input.postal_code);
    const problem = !postalCode
      ? "must be a Canadian postal code like K1A 0B1"
      : !postalCodeMatchesProvince(postalCode, input.province)
        ? `is not a postal code of ${provinces[input.province].name}`
        : undefined;
    if (problem) {
      ctx.addIssue({ code: "custom", path: ["postal_code"], message: problem });
      return z.NEVER;
    }
    return { ...input, postal_code: postalCode! };
  })
  .meta({
    id: "ShippingAddressInput",
    description: "A Canadian address; the postal code must belong to the province",
    example: addressExample,
  });
export type TCanadianAddress = z.output<typeof ZCanadianAddressSchema>;

/** A Canadian address as answered (saved address, quotes): normalised, absent lines as null. */
export const ZCanadianAddressResponse = z
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
  .meta({ id: "ShippingAddress", example: addressExample });
