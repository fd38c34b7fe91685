/** Small zod helpers shared by the request schemas. Imports only zod. */
import { z } from "zod";

/** Optional fields accept null as if omitted (reference 1.2.1). */
export const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => value ?? undefined);

/** What a whole number given as text may be: decimal digits, optionally negative (then refused by its bounds). */
const wholeNumberDigits = /^-?\d{1,15}$/;

/**
 * A whole number given as a JSON number or in decimal digits (a query string, a form field), in
 * [min, max]. Only digits are read as a number: "0x10", "1e1", " 12" and "" stay strings and are
 * refused, where z.coerce.number would take them as 16, 10, 12 and 0. `message` replaces every
 * message (a card's month); by default each names the bound. For optional fields and procedure
 * inputs only: the OpenAPI generator reads a preprocess as optional, so a required REST parameter
 * (a path id) would lose its `required`; a path takes `wholeNumberParam`.
 */
export const wholeNumber = (min: number, max: number, message?: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && wholeNumberDigits.test(value) ? Number(value) : value),
    z
      .number({ error: message ?? "must be a whole number" })
      .int(message ?? "must be a whole number")
      .min(min, message ?? `must be at least ${min}`)
      .max(max, message ?? `must be at most ${max}`),
  );

/** Largest id or count the database holds (PostgreSQL int4): the documented bound instead of ±2^53. */
const maxInt = 2_147_483_647;

/** A row id on the wire (positive int4) with a realistic example for the reference page. */
export const ZIntId = (example: number) => z.number().int().min(1).max(maxInt).meta({ example });

/** A count or a number of days on the wire (0 and up, bounded) with a realistic example. */
export const ZIntCount = (example: number, max = maxInt) =>
  z.number().int().min(0).max(max).meta({ example });

/** A page number or page size (1 and up, bounded) with a realistic example. */
export const ZIntPage = (example: number, max = maxInt) =>
  z.number().int().min(1).max(max).meta({ example });

/** drop_percent's range (1.9.0): the target is that much below the price when the watch or alert is set. */
export const dropPercentRange = { min: 1, max: 90 } as const;

/** The payload is an object (its fields may be invalid): the exclusive pair is checked anyway. */
export const isObjectPayload = (payload: { value: unknown }) =>
  typeof payload.value === "object" && payload.value !== null;

/**
 * Exactly one of two fields is given (null counts as left out): 422 naming both when neither is,
 * the second when both are.
 */
export const exactlyOne =
  (first: string, second: string) => (input: object, ctx: z.RefinementCtx<object>) => {
    const given = (key: string) => {
      const value = (input as Record<string, unknown>)[key];
      return value !== undefined && value !== null;
    };
    if (given(first) !== given(second)) return;
    for (const path of given(first) ? [second] : [first, second])
      ctx.addIssue({
        code: "custom",
        path: [path],
        message: given(first)
          ? `give ${first} or ${second}, not both`
          : `give ${first} or ${second}`,
      });
  };

/**
 * A required whole number in a path (an item's or a price watch's id), read by the same rule as
 * `wholeNumber`: a JSON number (MCP arguments, procedure callers) or decimal digits (the path), so
 * "0x10", "1e3" and " 12" are refused where z.coerce.number read them as 16, 1000 and 12. Not a
 * preprocess: its first stage is a union of a number and a digit string, which the OpenAPI generator
 * reads as required; the document shows the parameter as the integer it is (`override`: the union
 * is how it is read, not what a client sends).
 */
export const wholeNumberParam = (
  min: number,
  max: number,
  options: { message?: string; example: number },
) => {
  const { message, example } = options;
  const notWhole = message ?? "must be a whole number";
  return z
    .union([z.number(), z.string().regex(wholeNumberDigits, notWhole)], { error: notWhole })
    .transform(Number)
    .pipe(
      z
        .number()
        .int(notWhole)
        .min(min, message ?? `must be at least ${min}`)
        .max(max, message ?? `must be at most ${max}`),
    )
    .meta({
      example,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: "integer", minimum: min, maximum: max, example });
      },
    });
};
