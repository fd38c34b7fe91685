/**
 * Property: every /api/v1 operation of the OpenAPI document, called with parameters and bodies
 * generated from its own schemas (server/testing/operation-schemas.ts) and mixed with hostile
 * values (server/testing/schema-arbitrary.ts), answers one of the statuses the document lists for
 * it, never a 5xx; every refusal is the documented error body ({error: {code, message, fields?}}
 * with a known code), with no stack trace, no file path and no secret (APP_SECRET, a client
 * secret, the caller's own token) in it unless the caller itself put that value in the path, query
 * or body (a 404 may name the id it was asked for); nothing is logged as an unexpected error. A real server
 * (front door, lean API layer, route handlers) on a real database, tokens issued as in production.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, createPartner, createPerson } from "../../../prisma/factories";
import { allScopes } from "../../auth/scopes";
import { issueAccessToken } from "../../auth/tokens";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { errorTable } from "../../core/errors";
import { type ApiOperation, apiOperations } from "../../testing/operation-schemas";
import {
  exampleValue,
  fuzzedValue,
  hostileValue,
  injectionValue,
  oneInjectedField,
  withDuplicateKey,
} from "../../testing/schema-arbitrary";
import { captureLogLines } from "../../testing/log-capture";
import { createFrontServer } from "./front-door";
import { createLeanApi } from "./lean-api";

let server: Server;
let baseUrl: string;
const tokens: string[] = [];
let secrets: string[] = [];
const knownCodes = new Set(Object.keys(errorTable));

beforeAll(async () => {
  const lean = await createLeanApi({
    appDir: path.resolve(__dirname, "../../../app"),
    prefixes: ["api/v1", "oauth/token"],
    origin: env().PUBLIC_URL,
  });
  server = createFrontServer({
    api: lean.handle,
    next: (_request, response) => void response.writeHead(404).end(),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Assistants with every scope, each for one person, so scope checks pass and validation is reached;
  // enough of them that the fuzzing (every operation of the table, 40 plus 25 runs each) stays under each
  // client's 120 requests a minute.
  const scopes = [...allScopes];
  for (let i = 0; i < Math.ceil((apiOperations().length * 75) / 100); i++) {
    const agent = await createAgent({ scopes });
    const { person } = await createPerson();
    tokens.push(
      (
        await issueAccessToken(db(), {
          clientId: agent.id,
          personId: person.id,
          scopes,
          now: new Date(),
        })
      ).token,
    );
  }
  const partner = await createPartner();
  secrets = [env().APP_SECRET, partner.secret, ...tokens];
}, 120_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let turn = 0;
const nextToken = () => tokens[turn++ % tokens.length];

/** A query value as clients send it: scalars as text, arrays as repeated parameters, objects as JSON. */
const queryValues = (value: unknown): string[] => {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value))
    return value.flatMap((item) =>
      typeof item === "object" && item !== null ? [JSON.stringify(item)] : [String(item)],
    );
  return [typeof value === "object" ? JSON.stringify(value) : String(value)];
};

/** Percent-encodes every byte of the UTF-8 text but unreserved ones (a lone surrogate becomes U+FFFD, as in a browser). */
const percentEncoded = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

const asText = (value: unknown) =>
  typeof value === "object" ? JSON.stringify(value) : String(value);

/**
 * A header value as fetch sends it: a byte string without NUL, CR or LF (control characters and
 * Latin-1 bytes included, as a careless client sends them); anything else percent-encoded, as a
 * client library would.
 */
const headerValue = (value: unknown) => {
  const text = asText(value);
  return (
    /^[\t\x20-\x7e\x80-\xff]*$/.test(text) && text.trim() === text ? text : percentEncoded(text)
  ).slice(0, 8_000);
};

type Generated = {
  params: Record<string, unknown>;
  body: unknown;
  hasBody: boolean;
  rawBody: string | null;
};

const requestArbitrary = (operation: ApiOperation): fc.Arbitrary<Generated> => {
  const params = fc.record(
    Object.fromEntries(
      operation.parameters.map((parameter) => [
        parameter.name,
        parameter.name === "Idempotency-Key"
          ? fc.oneof(fc.uuid(), hostileValue(secrets))
          : fuzzedValue(parameter.schema, secrets),
      ]),
    ),
    {
      requiredKeys: operation.parameters
        .filter((parameter) => parameter.required || parameter.in === "path")
        .map((parameter) => parameter.name),
    },
  );
  const body = operation.body ? fuzzedValue(operation.body.schema, secrets) : hostileValue(secrets);
  // Bodies that are not JSON at all, now and then.
  const rawBody = fc.option(
    fc.constantFrom("{", "[1,2", "null", '"text"', "a=1&b=2", "\u0000", '{"quote_id":"quo_x",}'),
    { freq: 8 },
  );
  return fc.record({
    params,
    body,
    hasBody: fc.boolean().map((isSent) => isSent || Boolean(operation.body?.required)),
    rawBody,
  });
};

/**
 * Issue 24, section 4: a request that is valid but for one injection class in one place (one body
 * field at any depth, one query parameter, one header), or a body with a key written twice (the
 * second holding the injection), or nested past any schema's depth. Valid elsewhere so the value
 * reaches the procedure (and the database) rather than being refused for another field first.
 */
const injectedRequestArbitrary = (operation: ApiOperation): fc.Arbitrary<Generated> => {
  const validParams = () =>
    fc.record(
      Object.fromEntries(
        operation.parameters.map((parameter) => [
          parameter.name,
          parameter.name === "Idempotency-Key" ? fc.uuid() : exampleValue(parameter.schema),
        ]),
      ),
      {
        requiredKeys: operation.parameters
          .filter((parameter) => parameter.required || parameter.in === "path")
          .map((parameter) => parameter.name),
      },
    );
  const validBody = operation.body ? exampleValue(operation.body.schema) : fc.constant(undefined);
  const targets: fc.Arbitrary<Generated>[] = [];
  if (operation.body) {
    const schema = operation.body.schema;
    targets.push(
      fc.record({
        params: validParams(),
        body: oneInjectedField(schema),
        hasBody: fc.constant(true),
        rawBody: fc.constant(null),
      }),
      fc.record({
        params: validParams(),
        body: fc.constant(null),
        hasBody: fc.constant(true),
        rawBody: fc
          .tuple(exampleValue(schema), injectionValue)
          .map(([value, injected]) => withDuplicateKey(value, injected)),
      }),
      fc.record({
        params: validParams(),
        body: fc.constant(null),
        hasBody: fc.constant(true),
        rawBody: fc
          .integer({ min: 1_000, max: 20_000 })
          .map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
      }),
    );
  }
  const injectable = operation.parameters.filter((parameter) => parameter.in !== "path");
  if (injectable.length) {
    targets.push(
      fc
        .tuple(
          validParams(),
          fc.constantFrom(...injectable.map((parameter) => parameter.name)),
          injectionValue,
          validBody,
        )
        .map(([params, name, injected, body]) => ({
          params: { ...params, [name]: injected },
          body,
          hasBody: Boolean(operation.body),
          rawBody: null,
        })),
    );
  }
  // Headers every operation reads whatever it declares.
  targets.push(
    fc
      .tuple(
        validParams(),
        fc.constantFrom(
          "X-Request-Id",
          "Idempotency-Key",
          "Cache-Control",
          "Content-Type",
          "Accept",
        ),
        injectionValue,
        validBody,
      )
      .map(([params, name, injected, body]) => ({
        params: { ...params, [`header:${name}`]: injected },
        body,
        hasBody: Boolean(operation.body),
        rawBody: null,
      })),
  );
  return fc.oneof(...targets);
};

const call = async (operation: ApiOperation, generated: Generated) => {
  const token = nextToken();
  let target = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  for (const parameter of operation.parameters) {
    const value = generated.params[parameter.name];
    // A dot segment ("." or "..") is no value a client can send: URL parsing removes it (GET /purchases/. is GET /purchases/).
    if (parameter.in === "path")
      target = target.replace(
        `{${parameter.name}}`,
        /^(\.{1,2})?$/.test(percentEncoded(asText(value))) ? "x" : percentEncoded(asText(value)),
      );
    else if (parameter.in === "query")
      for (const item of queryValues(value)) query.append(parameter.name, item);
    else if (value !== undefined) headers[parameter.name] = headerValue(value);
  }
  for (const [name, value] of Object.entries(generated.params))
    if (name.startsWith("header:") && value !== undefined)
      headers[name.slice("header:".length).toLowerCase()] = headerValue(value);
  const isPost = operation.method === "POST";
  const body =
    isPost && generated.hasBody
      ? (generated.rawBody ?? JSON.stringify(generated.body ?? null))
      : undefined;
  if (body !== undefined && !("content-type" in headers))
    headers["content-type"] = "application/json";
  const url = `${baseUrl}/api/v1${target}${query.size ? `?${query}` : ""}`;
  const response = await fetch(url, { method: operation.method, headers, body });
  // What the caller itself put in the path, query, headers (its token aside) and body: an answer may name those.
  const sent =
    decodeURIComponent(url.replace(/%(?![0-9A-F]{2})/gi, "%25")) +
    JSON.stringify(Object.entries(headers).filter(([name]) => name !== "authorization")) +
    (body ?? "");
  return {
    url,
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    text: await response.text(),
    sent,
  };
};

const stackTrace = /\n\s+at .+:\d+:\d+|node_modules|\/work\/|server\/|\.ts:\d+/;

const assertDocumentedAnswer = (
  operation: ApiOperation,
  answer: Awaited<ReturnType<typeof call>>,
) => {
  const context = `${operation.method} ${answer.url.slice(0, 300)} -> ${answer.status} ${answer.text.slice(0, 400)}`;
  expect(answer.status, context).toBeLessThan(500);
  expect(operation.statuses, context).toContain(answer.status);
  // A secret appears only where the caller itself wrote it (a 404 may name the id it was asked for); never APP_SECRET, another's secret or the bearer token.
  for (const secret of secrets)
    if (!answer.sent.includes(secret))
      expect(answer.text.includes(secret), `${context} repeats a secret`).toBe(false);
  expect(answer.text, context).not.toMatch(stackTrace);
  if (answer.status < 400) return;
  expect(answer.type, context).toContain("application/json");
  const body = JSON.parse(answer.text) as {
    error: { code: string; message: string; fields?: Record<string, string> };
  };
  expect(Object.keys(body), context).toEqual(["error"]);
  // Members beyond code, message and fields are a code's documented details (unavailable_items of nothing_to_buy, scope of insufficient_scope, ...).
  expect(Object.keys(body.error).slice(0, 2), context).toEqual(["code", "message"]);
  expect(knownCodes.has(body.error.code), context).toBe(true);
  expect(typeof body.error.message, context).toBe("string");
  if (body.error.fields) {
    expect(
      Object.values(body.error.fields).every((reason) => typeof reason === "string"),
      context,
    ).toBe(true);
    // A reason in the API's words ("is required", "must be …"), never zod's own English.
    for (const [field, reason] of Object.entries(body.error.fields))
      expect(reason, `${context}: ${field}`).not.toMatch(zodDefaultMessage);
  }
};

/** How zod words an issue when the schema gave no message of its own (server/core/zod-messages.ts rewords them). */
const zodDefaultMessage = /^(Invalid |Too (small|big)|Unrecognized key|Expected |Required$)/;

describe("fuzzing every /api/v1 operation from its schemas", () => {
  const operations = apiOperations();

  it("the adapter finds every operation with its parameters and bodies", () => {
    expect(operations.length).toBeGreaterThanOrEqual(17);
    expect(
      operations.find((operation) => operation.path === "/checkout/quotes")?.body?.schema
        .properties,
    ).toHaveProperty("shipping_address.properties.postal_code");
  });

  it.each(
    operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const),
  )(
    "%s: documented status and error body, never a 5xx, a stack or a secret",
    async (_name, operation) => {
      const logs = captureLogLines();
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(requestArbitrary(operation), async (generated) => {
          const answer = await call(operation, generated);
          seen.add(answer.status);
          assertDocumentedAnswer(operation, answer);
        }),
        {
          numRuns: Number(process.env.FUZZ_RUNS ?? 40),
          seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
        },
      );
      expect(logs.lines.filter((line) => line.err !== undefined)).toEqual([]);
      // The runs got past authentication and rate limits into the operation's own validation and logic.
      expect(
        [...seen].some((status) => status < 300 || [404, 409, 422].includes(status)),
        [...seen].join(","),
      ).toBe(true);
    },
    180_000,
  );

  it.each(
    operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const),
  )(
    "%s: one injection (huge number, control character, lone surrogate, deep nesting, duplicate key) in a valid request is a documented 4xx, never a 5xx",
    async (_name, operation) => {
      const logs = captureLogLines();
      await fc.assert(
        fc.asyncProperty(injectedRequestArbitrary(operation), async (generated) => {
          const answer = await call(operation, generated);
          assertDocumentedAnswer(operation, answer);
        }),
        {
          numRuns: Number(process.env.FUZZ_INJECTION_RUNS ?? 25),
          seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
        },
      );
      expect(logs.lines.filter((line) => line.err !== undefined)).toEqual([]);
    },
    180_000,
  );

  it("a request id of the caller's choosing never becomes a vector: a hostile X-Request-Id is replaced", async () => {
    const response = await fetch(`${baseUrl}/api/v1/categories`, {
      headers: {
        authorization: `Bearer ${nextToken()}`,
        "x-request-id": `${randomUUID()}<script>`,
      },
    });
    expect(response.headers.get("x-request-id")).not.toContain("<script>");
  });
});
