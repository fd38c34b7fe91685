/** Small zod helpers shared by the request schemas. Imports only zod. */
import { z } from "zod";

/** Optional fields accept null as if omitted (reference 1.2.1). */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);
