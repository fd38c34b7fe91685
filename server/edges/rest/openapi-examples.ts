/**
 * Whole-object examples for the OpenAPI document, composed from the examples of the fields.
 *
 * Each field's example is written once, beside its zod schema (`.meta({ example })`); an object,
 * an array or a reference gets the example its parts compose to, so a ProductSummary, the Quote
 * that lists it and the search answer that pages it show the same item, and no JSON is copied by
 * hand per route. A schema that states its own example (Money, Totals: numbers that must add up)
 * keeps it. Values the schema itself decides need no example: an enum shows its first value, a
 * constant itself, a date-time or date a fixed instant, a boolean true.
 *
 * A field with nothing to show (a plain string without an example) is reported in `missing`:
 * openapi-examples.test.ts fails on it, so a new field cannot reach the reference page bare.
 */
type Schema = Record<string, unknown>;
type Document = {
  components?: { schemas?: Record<string, Schema> };
  paths: Record<string, Record<string, unknown>>;
};

const instant = "2026-11-24T15:30:00.000Z";
const day = "2026-11-27";

const typesOf = (schema: Schema): string[] =>
  Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === "string"
      ? [schema.type]
      : [];

/** Composes examples through $refs (components are composed once and kept). */
const composer = (components: Record<string, Schema>) => {
  const missing: string[] = [];
  const composing = new Set<string>();

  const compose = (schema: Schema, pointer: string): unknown => {
    if (schema.example !== undefined) return schema.example;
    if (typeof schema.$ref === "string") {
      const name = schema.$ref.replace("#/components/schemas/", "");
      return component(name);
    }
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? null;
    const branches = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as Schema[] | undefined;
    if (branches) {
      // Show the value rather than null when a field is nullable.
      const shown =
        branches.find(
          (branch) => !(typesOf(branch).length === 1 && typesOf(branch)[0] === "null"),
        ) ?? branches[0];
      return compose(shown, `${pointer}/anyOf`);
    }
    const types = typesOf(schema).filter((type) => type !== "null");
    if (types.includes("object") || schema.properties) {
      const example: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(
        (schema.properties ?? {}) as Record<string, Schema>,
      )) {
        const value = compose(property, `${pointer}/properties/${name}`);
        if (value !== undefined) example[name] = value;
      }
      if (
        !schema.properties &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === "object"
      ) {
        missing.push(pointer); // a map: only its own example can say what its keys are
        return undefined;
      }
      return example;
    }
    if (types.includes("array")) {
      const item = compose((schema.items ?? {}) as Schema, `${pointer}/items`);
      return item === undefined ? undefined : [item];
    }
    if (types.includes("string") && schema.format === "date-time") return instant;
    if (types.includes("string") && schema.format === "date") return day;
    if (types.includes("boolean")) return true;
    missing.push(pointer);
    return undefined;
  };

  const component = (name: string): unknown => {
    const schema = components[name];
    if (!schema) return undefined;
    if (schema.example !== undefined) return schema.example;
    if (composing.has(name)) return undefined; // a recursive schema (CategoryNode's children) stops at itself
    composing.add(name);
    const example = compose(schema, `#/components/schemas/${name}`);
    composing.delete(name);
    if (example !== undefined) schema.example = example;
    return example;
  };

  return { compose, component, missing };
};

type Media = { content?: Record<string, { schema?: Schema }> };

/** Every schema a request or response names directly: parameters, bodies, answers. */
const operationSchemas = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(
      item as Record<
        string,
        {
          parameters?: { name: string; schema?: Schema }[];
          requestBody?: Media;
          responses?: Record<string, Media>;
        }
      >,
    ).flatMap(([method, operation]) => [
      ...(operation.parameters ?? []).flatMap((parameter) =>
        parameter.schema
          ? [{ pointer: `${method} ${path} parameter ${parameter.name}`, schema: parameter.schema }]
          : [],
      ),
      ...Object.values(operation.requestBody?.content ?? {}).flatMap((media) =>
        media.schema ? [{ pointer: `${method} ${path} body`, schema: media.schema }] : [],
      ),
      ...Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
        Object.values(response.content ?? {}).flatMap((media) =>
          media.schema ? [{ pointer: `${method} ${path} ${status}`, schema: media.schema }] : [],
        ),
      ),
    ]),
  );

/**
 * Gives every component schema, and every parameter, body and answer schema that is not a
 * reference, an example composed from its fields (in place). Answers the fields that had none.
 */
export const addExamples = (openApi: object) => {
  const document = openApi as Document;
  const components = document.components?.schemas ?? {};
  const { compose, component, missing } = composer(components);
  for (const name of Object.keys(components)) component(name);
  for (const { pointer, schema } of operationSchemas(document)) {
    if (schema.$ref || schema.example !== undefined) continue;
    const example = compose(schema, pointer);
    if (example !== undefined) schema.example = example;
  }
  return { missing: [...new Set(missing)] };
};
