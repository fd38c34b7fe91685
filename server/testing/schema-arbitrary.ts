/**
 * fast-check arbitraries from JSON Schemas (server/testing/operation-schemas.ts): values that fit
 * the schema, hostile values (huge and non-finite numbers, numeric strings that are not numbers,
 * unicode edge cases, very long strings, deep nesting, arrays where scalars go, prototype keys,
 * known secrets), and values that fit except for some hostile fields or extra fields; and (issue
 * 24) values that fit except for exactly one field of one injection class, so the hostile value
 * reaches the procedure and the database instead of being refused for another field first.
 */
import fc from "fast-check";
import type { JsonSchema } from "./operation-schemas";

/** An object nested `depth` levels deep ({"a":{"a":...}}). */
const nested = (depth: number): unknown => (depth === 0 ? "deep" : { a: nested(depth - 1) });

/** Hostile values of any JSON type; `secrets` are values the answer must never repeat. */
export const hostileValue = (secrets: string[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom<unknown>(
        1e308,
        -1e308,
        2 ** 53 + 1,
        -(2 ** 63),
        2 ** 31,
        -1,
        0,
        -0,
        0.5,
        1e-7,
        "NaN",
        "Infinity",
        "-Infinity",
        "1e9999",
        "0x1F",
        "1_000",
        " 1",
        "",
        " ",
        "null",
        "undefined",
        "true",
        "__proto__",
        "constructor",
        "toString",
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(
        "\u0000",
        "a\u0000b",
        "\u202eevil",
        "e\u0301",
        "😀".repeat(40),
        "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
        "ǅ",
        "\ud800",
        "Ω≈ç√∫",
        "'; DROP TABLE items; --",
        "<script>alert(1)</script>",
        "../../etc/passwd",
        "%00%2e%2e",
        "${7*7}{{7*7}}",
        "\r\nX-Injected: 1",
      ),
    },
    { weight: 2, arbitrary: fc.constantFrom<unknown>(...secrets) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((length) => "x".repeat(length)),
    },
    { weight: 1, arbitrary: fc.integer({ min: 5, max: 200 }).map(nested) },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 4 }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(
        { __proto__: { isAdmin: true } },
        { constructor: { prototype: { isAdmin: true } } },
        [[[[]]]],
        {},
      ),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constant(null),
        fc.boolean(),
        fc.double(),
        fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      ),
    },
  );

/** Values that fit `schema` (within small sizes). */
export const validValue = (schema: JsonSchema): fc.Arbitrary<unknown> => {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map(validValue));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "integer")
    return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
  if (type === "number")
    return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
  if (type === "boolean") return fc.boolean();
  if (type === "null") return fc.constant(null);
  if (type === "string") {
    if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
    return fc.string({
      minLength: schema.minLength ?? 0,
      maxLength: Math.min(schema.maxLength ?? 40, Math.max(schema.minLength ?? 0, 40)),
    });
  }
  if (type === "array")
    return fc.array(validValue(schema.items ?? {}), {
      minLength: schema.minItems ?? 0,
      maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
    });
  if (type === "object" || schema.properties) {
    const properties = schema.properties ?? {};
    if (!Object.keys(properties).length)
      return fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), {
        maxKeys: 3,
      });
    return fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, inner]) => [name, validValue(inner)]),
      ),
      { requiredKeys: schema.required ?? [] },
    );
  }
  return fc.jsonValue({ maxDepth: 2 });
};

/** Fields a client must never set: refused (unknown field) or ignored, never applied. */
const massAssignment = fc.constantFrom(
  { status: "paid" },
  { price_cents: 1 },
  { grand_total_cents: 1 },
  { person_id: "per_someone_else" },
  { client_id: "cli_other" },
  { order_number: "X" },
  { captured_at: "2026-01-01T00:00:00Z" },
  { isAdmin: true },
);

/** A value for `schema` as a careless or hostile client sends it: valid, hostile, or valid with some parts hostile or extra. */
export const fuzzedValue = (
  schema: JsonSchema,
  secrets: string[],
  depth = 0,
): fc.Arbitrary<unknown> => {
  const hostile = hostileValue(secrets);
  const properties = schema.properties;
  const variants: fc.WeightedArbitrary<unknown>[] = [
    { weight: 3, arbitrary: validValue(schema) },
    { weight: 2, arbitrary: hostile },
  ];
  if (properties && depth < 3) {
    const mixed = fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, inner]) => [
          name,
          fuzzedValue(inner, secrets, depth + 1),
        ]),
      ),
      { requiredKeys: schema.required ?? [] },
    );
    variants.push(
      { weight: 4, arbitrary: mixed },
      {
        weight: 1,
        arbitrary: fc
          .tuple(validValue(schema), massAssignment)
          .map(([value, extra]) => ({ ...(value as object), ...extra })),
      },
    );
  }
  if (schema.items && depth < 3)
    variants.push({
      weight: 2,
      arbitrary: fc.array(fuzzedValue(schema.items, secrets, depth + 1), { maxLength: 4 }),
    });
  return fc.oneof(...variants);
};

/**
 * The injection classes of issue 24, section 4, each as a value for one field: huge numbers (as
 * JSON numbers and as decimal strings, past every int4 and money bound), NUL and the other control
 * characters, lone surrogates, deep nesting.
 */
export const injectionValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    1e7,
    10_000_000.0,
    2_147_483_648,
    1e15,
    1e21,
    1e300,
    2 ** 53 + 2,
    -2_147_483_649,
  ),
  fc.constantFrom<unknown>(
    "10000000.00",
    "99999999.99",
    "999999999.99",
    "2147483648",
    "99999999999999999999",
    "1e21",
    "100000000000000000000000000000.00",
  ),
  fc
    .integer({ min: 0, max: 0x1f })
    .chain((code) =>
      fc.constantFrom(String.fromCharCode(code), `Ana${String.fromCharCode(code)}Lima`),
    ),
  fc.constantFrom<unknown>("\u007f", "a\u0000", "\u0000", "x\u0000y\u0000z"),
  fc.constantFrom<unknown>("\ud800", "\udfff", "a\ud83d", "\ude00b", "\udbff\udbff"),
  fc.integer({ min: 33, max: 400 }).map(nested),
  fc
    .integer({ min: 33, max: 400 })
    .map((depth) => JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`) as unknown),
);

/** The paths (property names, "*" for an array element) of the leaves of `schema`, at most `depth` levels down. */
const leafPaths = (schema: JsonSchema, depth = 0): string[][] => {
  if (depth > 4) return [[]];
  const inner = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  const properties =
    schema.properties ?? Object.assign({}, ...inner.map((choice) => choice.properties ?? {}));
  const paths: string[][] = [];
  for (const [name, child] of Object.entries(properties as Record<string, JsonSchema>))
    for (const path of leafPaths(child, depth + 1)) paths.push([name, ...path]);
  const items = schema.items ?? inner.find((choice) => choice.items)?.items;
  if (items) for (const path of leafPaths(items, depth + 1)) paths.push(["*", ...path]);
  return paths.length ? paths : [[]];
};

/** `value` with the field at `path` set to `replacement` (every element, for "*"); containers made when missing. */
const withField = (value: unknown, path: string[], replacement: unknown): unknown => {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (head === "*") {
    const list = Array.isArray(value) && value.length ? value : [undefined];
    return list.map((element) => withField(element, rest, replacement));
  }
  const object =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  return { ...object, [head]: withField(object[head], rest, replacement) };
};

/**
 * The documented example of `schema` (each field's own `example` in the OpenAPI document), composed
 * through objects and arrays; a field without one gets a generated valid value. The examples pass
 * every cross-field rule (max_total >= max_price), which random values rarely do.
 */
export const exampleValue = (schema: JsonSchema & { example?: unknown }): fc.Arbitrary<unknown> => {
  if (schema.example !== undefined) return fc.constant(schema.example);
  if (schema.properties) {
    return fc.record(
      Object.fromEntries(
        Object.entries(schema.properties).map(([name, inner]) => [name, exampleValue(inner)]),
      ),
      { requiredKeys: Object.keys(schema.properties) },
    );
  }
  if (schema.items) return fc.array(exampleValue(schema.items), { minLength: 1, maxLength: 1 });
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.some((choice) => (choice as { example?: unknown }).example !== undefined))
    return fc.oneof(...choices.map(exampleValue));
  return validValue(schema);
};

/** A value that fits `schema` (its example, or generated) except for one field (any depth) holding one injection class. */
export const oneInjectedField = (schema: JsonSchema): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: exampleValue(schema) },
        { weight: 1, arbitrary: validValue(schema) },
      ),
      fc.constantFrom(...leafPaths(schema)),
      injectionValue,
    )
    .map(([value, path, injected]) => withField(value, path, injected));

/**
 * A JSON text for `value` with one of its keys written twice (RFC 8259 leaves duplicates to the
 * reader; JSON.parse keeps the last), the second time holding an injection class.
 */
export const withDuplicateKey = (value: unknown, injected: unknown): string => {
  const text = JSON.stringify(value ?? {});
  const match = /^\{"((?:[^"\\]|\\.)*)":/.exec(text);
  if (!match) return `{"a":1,"a":${JSON.stringify(injected)}}`;
  return `${text.slice(0, -1)}${text.length > 2 ? "," : ""}"${match[1]}":${JSON.stringify(injected)}}`;
};
