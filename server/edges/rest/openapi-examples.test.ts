/**
 * Every schema of the OpenAPI document shows a realistic example (issue 13): each component, and
 * each parameter, body and answer an operation names, composed from its fields' examples
 * (openapi-examples.ts). Each component's example is valid for the zod schema it was generated
 * from (found by its id in zod's registry), and each operation's body and answer example for the
 * table entry's schemas, so the reference page never shows a value the API would refuse or never send.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operations } from "./operations";
import { openApiDocument, openApiExamplesMissing } from "./openapi";

type Schema = { example?: unknown; $ref?: string };
type Media = { content?: Record<string, { schema?: Schema }> };
type OperationObject = {
  parameters?: { name: string; schema?: Schema }[];
  requestBody?: Media;
  responses: Record<string, Media>;
};

const document = () =>
  openApiDocument() as unknown as {
    components: { schemas: Record<string, Schema> };
    paths: Record<string, Record<string, OperationObject>>;
  };
const jsonSchema = (media: Media | undefined) => media?.content?.["application/json"]?.schema;
/** What a partner sends and receives: the example through JSON. */
const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("examples in the OpenAPI document", () => {
  it("exist for every field: none left without one", () => {
    expect(openApiExamplesMissing()).toEqual([]);
  });

  it("exist for every component schema and validate against its zod schema", () => {
    const { schemas } = document().components;
    expect(Object.keys(schemas).length).toBeGreaterThan(30);
    const invalid: string[] = [];
    for (const [name, schema] of Object.entries(schemas)) {
      expect(schema.example, name).toBeDefined();
      const source = z.globalRegistry._idmap.get(name);
      expect(source, `${name} is registered by id`).toBeDefined();
      const parsed = (source as z.ZodType).safeParse(wire(schema.example));
      if (!parsed.success)
        invalid.push(
          `${name}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`,
        );
    }
    expect(invalid).toEqual([]);
  });

  it("exist for every parameter, body and answer, and the table's schemas accept the body and success examples", () => {
    const { paths } = document();
    const bare: string[] = [];
    const invalid: string[] = [];
    for (const entry of operations) {
      const operation = paths[entry.path]?.[entry.method.toLowerCase()];
      expect(operation, entry.id).toBeDefined();
      for (const parameter of operation.parameters ?? [])
        if (parameter.schema && parameter.schema.example === undefined)
          bare.push(`${entry.id} parameter ${parameter.name}`);
      const body = jsonSchema(operation.requestBody);
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = jsonSchema(response);
        if (schema && !schema.$ref && schema.example === undefined)
          bare.push(`${entry.id} ${status}`);
      }
      if (body && !body.$ref && body.example === undefined) bare.push(`${entry.id} body`);
      if (body && entry.input.body) {
        const example = body.$ref
          ? document().components.schemas[body.$ref.split("/").pop()!].example
          : body.example;
        const parsed = entry.input.body.safeParse(wire(example));
        if (!parsed.success)
          invalid.push(
            `${entry.id} body: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`,
          );
      }
      const answer = jsonSchema(operation.responses[String(entry.status)]);
      if (answer && entry.output) {
        const example = answer.$ref
          ? document().components.schemas[answer.$ref.split("/").pop()!].example
          : answer.example;
        const parsed = entry.output.safeParse(wire(example));
        if (!parsed.success)
          invalid.push(
            `${entry.id} ${entry.status}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`,
          );
      }
    }
    expect(bare).toEqual([]);
    expect(invalid).toEqual([]);
  });
});
