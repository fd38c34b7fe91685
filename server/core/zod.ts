/** Small zod helpers shared by the request schemas. Imports only zod. */
import { z } from "zod";

/** Optional fields accept null as if omitted (reference 1.2.1). */
export const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => value ?? undefined);

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
