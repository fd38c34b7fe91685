/**
 * What the REST edge does with request fields the operation does not know, before its schema
 * parses them. Clients and the service evolve additively (reference, Versioning), so an unknown
 * query parameter or body field is dropped, at any depth, rather than refused; null in an optional
 * field counts as leaving it out (reference 1.2.1). The exception is a field only the service may
 * decide (status, a price or amount, a person or an order: mass assignment, OWASP API3:2023): it
 * is a 422 naming it, so a client that believes it set one learns at once that it did not.
 * The schemas stay strict for the pages' tRPC calls; only this edge is lenient.
 */
import type { z } from "zod";
import { fieldName } from "../../core/zod-fields";

/** Whole words of a field name that make it the service's to decide (`status`, `unit_price`, `person_id`, `order_number`, `grand_total`...). */
const protectedWords =
  /(^|_)(status|statuses|price|prices|amount|amounts|total|totals|person|persons|people|order|orders)(_|$)/;
/** Other fields the service alone sets (RELIABILITY.md B2-20). */
const protectedNames = new Set([
  "subtotal",
  "discount",
  "tax",
  "taxes",
  "captured_at",
  "charged_at",
  "charges_at",
  "paid_at",
  "cancel_until",
  "spending_limit",
  "spending_limits",
]);

export const protectedFieldReason = "cannot be set by the client: the service decides it";

const isProtectedField = (name: string) => {
  const lower = name.toLowerCase();
  return protectedWords.test(lower) || protectedNames.has(lower);
};

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const wrappers = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "catch",
  "readonly",
  "nonoptional",
]);

/** The schema that checks a value's shape, through optional/nullable/default wrappers and transforms. */
const unwrap = (schema: z.ZodType): z.ZodType => {
  let current = schema;
  for (let depth = 0; depth < 20; depth++) {
    const def = defOf(current);
    if (wrappers.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else break;
  }
  return current;
};

/** The field schemas an object schema declares, through wrappers and transforms (undefined when the schema is not an object). */
export const objectShape = (
  schema: z.ZodType | undefined,
): Record<string, z.ZodType> | undefined => {
  const def = schema ? defOf(unwrap(schema)) : undefined;
  return def?.type === "object" && def.shape ? def.shape : undefined;
};

/** The fields an object schema declares (undefined when the schema is not an object). */
export const declaredKeys = (schema: z.ZodType | undefined): ReadonlySet<string> | undefined => {
  const shape = objectShape(schema);
  return shape ? new Set(Object.keys(shape)) : undefined;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** May be left out (optional, or has a default) but does not take null: then null means "left out" (1.2.1). */
const isOptionalNotNullable = (schema: z.ZodType) =>
  schema.safeParse(undefined).success && !schema.safeParse(null).success;

/**
 * `value` with the fields `schema` does not declare removed (and optional nulls removed), ready for
 * `schema` to parse; every protected field it does not declare is added to `refused` under its
 * path (`status`, `items[0].price`). Values the schema cannot describe are returned as they are.
 */
export const prepareInput = (
  schema: z.ZodType,
  value: unknown,
  refused: Record<string, string>,
  path: readonly PropertyKey[] = [],
): unknown => {
  const def = defOf(unwrap(schema));
  if (def.type === "array" && def.element && Array.isArray(value)) {
    return value.map((element, index) =>
      prepareInput(def.element!, element, refused, [...path, index]),
    );
  }
  if (def.type !== "object" || !def.shape || !isPlainObject(value)) return value;
  // An object that accepts any extra key (a catchall other than never) keeps them.
  const keepsUnknown = def.catchall !== undefined && defOf(def.catchall).type !== "never";
  const prepared: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const name = [...path, key];
    // Own keys only: a body key like "constructor" or "__proto__" must not find Object's own members.
    const fieldSchema = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
    if (!fieldSchema) {
      if (isProtectedField(key)) refused[fieldName(name)] = protectedFieldReason;
      else if (keepsUnknown) prepared[key] = field;
      continue;
    }
    if (field === null && isOptionalNotNullable(fieldSchema)) continue;
    prepared[key] = prepareInput(fieldSchema, field, refused, name);
  }
  return prepared;
};
