/**
 * The JSON Schema of a tool's input or output, generated from the operation's own zod schema (the
 * one the REST handler parses with and the procedure declares), so the two cannot drift. MCP wants
 * an object schema at the root: a schema registered under an id (.meta({ id })) comes out as a
 * root `$ref`, which is inlined here. Inputs are described as the caller sends them (`io: "input"`),
 * outputs as the service answers (`io: "output"`).
 */
import { z } from "zod";

export type ToolJsonSchema = {
  type: "object";
  properties?: Record<string, object>;
  required?: string[];
  [key: string]: unknown;
};

/** The object schema MCP lists for `schema`, with `$defs` kept for the references inside it. */
export const toolJsonSchema = (schema: z.ZodType, io: "input" | "output"): ToolJsonSchema => {
  const { $schema: _dialect, ...generated } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    // A schema's own rendering for the OpenAPI document (zod-openapi's `override` meta: a path id
    // read from a number or digits, shown as the integer it is) is the tool's too.
    override: ({ zodSchema, jsonSchema }) => {
      const { override } = (z.globalRegistry.get(zodSchema) ?? {}) as {
        override?: unknown;
      };
      if (typeof override === "function")
        (override as (context: { jsonSchema: object }) => void)({ jsonSchema });
    },
  }) as Record<string, unknown>;
  const ref =
    typeof generated.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(generated.$ref)?.[1] : undefined;
  if (!ref) return generated as ToolJsonSchema;
  // The definition stays in $defs too, for any reference inside it back to itself.
  const {
    $ref: _root,
    $defs,
    ...rest
  } = generated as { $ref: string; $defs: Record<string, object> } & Record<string, unknown>;
  return { ...rest, ...$defs[ref], $defs } as unknown as ToolJsonSchema;
};
