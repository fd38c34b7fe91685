/**
 * Property: whatever arrives on the socket (paths with %-garbage, unicode, dot segments and great
 * length, query strings, methods of any case, header values node accepts or refuses, bodies), the
 * front door and the lean API layer answer it within 2 s with a documented status, X-Request-Id,
 * and for the lean layer's refusals a JSON error body; nothing is thrown out of the listener and no
 * unexpected error is logged. Real server, raw sockets, so malformed bytes arrive unchanged.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { captureLogLines } from "../../testing/log-capture";
import { rawRequest, rawRequestBytes } from "../../testing/raw-http";
import { createFrontServer } from "./front-door";
import { createLeanApi } from "./lean-api";
import { requestIdPattern } from "../../platform/http/request-id";

/** Every status this service documents (DESIGN.md, docs/adr/0025-lean-api-layer.md). 5xx is not among them. */
const documented = new Set([
  200, 201, 202, 204, 308, 400, 401, 403, 404, 405, 408, 409, 410, 413, 415, 422, 429, 431,
]);

let server: Server;
let port: number;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  const lean = await createLeanApi({
    appDir: path.resolve(__dirname, "../../../app"),
    prefixes: ["api/v1", "oauth/token"],
    origin: "http://localhost:3000",
  });
  server = createFrontServer({
    api: lean.handle,
    next: (_request, response) => void response.writeHead(404, { "x-test-next": "1" }).end("next"),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
});

afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  process.off("unhandledRejection", onUncaught);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A string's UTF-8 bytes as a latin1 string, so rawRequestBytes puts those exact bytes on the wire. */
const utf8Bytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

// Each dimension is well-formed most of the time, so most requests reach the router and the handlers.
const pieceChars = [
  ..."abcXYZ019-._~!$&'()*+,;=:@%/?#\\",
  "%E0%A4%A",
  "%ZZ",
  "%00",
  "%2F",
  "%2e%2e",
  "%C3%A9",
  "%F0%9F%98%80",
  "%ED%A0%80",
  "%FF",
];
/** Bytes node's parser refuses in a request target (it answers those itself, through the front door). */
const rawChars = ["é", "€", "日", "😀", " ", "\t", "\0", "\u007f"];
const segment = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "products",
      "stores",
      "checkout",
      "sessions",
      "quotes",
      "cancel",
      "me",
      "orders",
      "openapi.json",
      "token",
      "12",
      "-1",
      "..",
      ".",
      "",
      "chk_x",
      "%E0%A4%A",
      "%00",
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...pieceChars), maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 9_000 }).map((length) => "a%41".repeat(length / 4)),
  },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.constantFrom(...pieceChars, ...rawChars), maxLength: 6 }),
  },
);
const query = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "q=shirt",
      "per_page=5&page=2",
      "size=S&size=M",
      "q=%E9",
      "q=a+b",
      "q=%00",
      "per_page=1e9",
      "perpage=2",
      "q=%E0%A4%A",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.constantFrom(..."ab=&+%;q0", "%E0%A4%A", "%00", "%C3%A9", "per_page=", "%2"),
      maxLength: 30,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.constantFrom("q=", "&", ...rawChars), maxLength: 6 }),
  },
);
const target = fc
  .tuple(
    fc.constantFrom(
      "/api/v1",
      "/api/v1/products",
      "/api/v1/stores",
      "/api/v1/checkout/sessions",
      "/api/v1/me",
      "/oauth/token",
      "/oauth",
      "",
      "/",
      "//api/v1",
      "http://evil.example",
      "*",
    ),
    fc.array(segment, { maxLength: 3 }),
    fc.boolean(),
    query,
  )
  .map(
    ([prefix, segments, trailing, search]) =>
      `${prefix}${segments.map((part) => `/${part}`).join("")}${trailing ? "/" : ""}${search === null ? "" : `?${search}`}`,
  );
const method = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("get", "Post", "PROPFIND", "TRACE", "CONNECT", "M-SEARCH", "SEARCH"),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z-]{1,12}$/) },
);
const headerValue = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      "Bearer x",
      "Bearer ",
      "Basic Zm9vOmJhcg==",
      "application/json",
      "application/x-www-form-urlencoded",
      "text/xml",
      "no-cache",
      "abc-123",
      "x".repeat(129),
      "",
    ),
  },
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc.constantFrom(..."aZ09 ,;=\"'/\\\t", "\u00e9", "\u00ff"),
      maxLength: 40,
    }),
  },
  // Control characters: node refuses the request itself.
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom("a", "\u007f", "\u0001", "\u0000"),
      maxLength: 4,
    }),
  },
);
const headers = fc.array(
  fc.tuple(
    fc.constantFrom(
      "Authorization",
      "Content-Type",
      "X-Request-Id",
      "Accept",
      "Cache-Control",
      "Idempotency-Key",
      "Cookie",
      "Origin",
      "X-Fuzz",
      "Expect",
    ),
    headerValue,
  ),
  { maxLength: 3 },
);
const body = fc.option(
  fc.constantFrom(
    "grant_type=client_credentials&client_id=x&client_secret=y",
    "grant_type=%E0%A4%A",
    "grant_type=authorization_code&code=%00",
    '{"quote_id":1}',
    "{",
    "a=%00",
    "\u00e9\u00e9",
    // Issue 24, section 4: NUL and control characters, lone surrogates, huge numbers, duplicate keys, deep nesting in JSON.
    '{"quote_id":"quo\\u0000"}',
    '{"name":"\\u001b[31m"}',
    '{"name":"\\ud800"}',
    '{"max_price":1e400,"max_total":99999999999999999999}',
    '{"quote_id":"a","quote_id":"\\u0000"}',
    `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
  ),
);

it("answers every request with a documented status within 2 s, X-Request-Id, and JSON refusals", async () => {
  const logs = captureLogLines();
  await fc.assert(
    fc.asyncProperty(method, target, headers, body, async (verb, url, extra, content) => {
      const response = await rawRequest(
        port,
        rawRequestBytes(verb, utf8Bytes(url), extra, content ?? ""),
        { deadlineMs: 2_000, isHead: verb === "HEAD" },
      );
      expect(documented, `${response.status} ${response.body}`).toContain(response.status);
      expect(response.headers["x-request-id"]).toMatch(requestIdPattern);
      const fromLean = response.headers["x-test-next"] === undefined;
      if (fromLean && response.status >= 400 && verb !== "HEAD")
        expect(JSON.parse(response.body)).toHaveProperty("error");
    }),
    { numRuns: 300 },
  );
  // No fault: no line carries an error (a 5xx's error rides on its request line, server/platform/http/respond.ts).
  expect(logs.lines.filter((line) => line.err !== undefined)).toEqual([]);
  expect(uncaught).toEqual([]);
}, 120_000);
