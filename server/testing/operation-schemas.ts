/**
 * Every /api/v1 operation with the JSON Schemas of its parameters and body, and its documented
 * statuses, read from the OpenAPI document (server/edges/rest/openapi.ts, built from the zod schemas).
 * The one place tests learn operations' shapes from: when the operation table becomes the source of
 * the schemas, only this adapter changes.
 */
import { openApiDocument } from "../edges/rest/openapi";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
};

export type Parameter = {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
};

export type ApiOperation = {
  method: string;
  /** The path under /api/v1, with {name} placeholders. */
  path: string;
  parameters: Parameter[];
  body?: { required: boolean; schema: JsonSchema };
  scopes: string[];
  statuses: number[];
};

type RawOperation = {
  parameters?: (Omit<Parameter, "required"> & { required?: boolean })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
};

/** Replaces every `$ref` to components/schemas by the schema it names (the document has no cycles). */
const resolve = (schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema => {
  if (schema.$ref)
    return resolve(components[schema.$ref.replace("#/components/schemas/", "")], components);
  const entries = Object.entries(schema).map(([key, value]) => {
    if (key === "properties")
      return [
        key,
        Object.fromEntries(
          Object.entries(value as Record<string, JsonSchema>).map(([name, inner]) => [
            name,
            resolve(inner, components),
          ]),
        ),
      ];
    if (key === "items" || (key === "additionalProperties" && typeof value === "object"))
      return [key, resolve(value as JsonSchema, components)];
    if (key === "anyOf" || key === "oneOf" || key === "allOf")
      return [key, (value as JsonSchema[]).map((inner) => resolve(inner, components))];
    return [key, value];
  });
  return Object.fromEntries(entries) as JsonSchema;
};

/** The operations of the public document, in its order. */
export const apiOperations = (): ApiOperation[] => {
  const document = openApiDocument() as unknown as {
    paths: Record<string, Record<string, RawOperation>>;
    components: { schemas: Record<string, JsonSchema> };
  };
  const components = document.components.schemas;
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const json = operation.requestBody?.content["application/json"];
      return {
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((parameter) => ({
          ...parameter,
          required: parameter.required ?? false,
          schema: resolve(parameter.schema, components),
        })),
        body: json
          ? {
              required: operation.requestBody!.required ?? false,
              schema: resolve(json.schema, components),
            }
          : undefined,
        scopes:
          operation.security?.flatMap((requirement) => Object.values(requirement).flat()) ?? [],
        statuses: Object.keys(operation.responses).map(Number),
      };
    }),
  );
};
