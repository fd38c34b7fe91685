/**
 * The lean API layer finds the route modules like Next does and answers with the same handlers;
 * pages and paths under its prefixes that no route matches go to the next handler. Malformed
 * requests get a JSON answer (raw sockets, so the bytes reach the server unchanged).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { rawRequest, rawRequestBytes } from "../../testing/raw-http";
import { createLeanApi } from "./lean-api";

let server: Server;
let base: string;
let routes: string[];
let port: number;

beforeAll(async () => {
  const lean = await createLeanApi({
    appDir: path.resolve(__dirname, "../../../app"),
    prefixes: ["api/v1", "oauth/token"],
    origin: "http://localhost:3000",
  });
  routes = lean.routes;
  server = createServer((request, response) => {
    if (!lean.handle(request, response)) response.writeHead(599).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("lean API layer", () => {
  it("finds every partner API route (the operation table behind the catch-all), and matches static before catch-all, as Next does", async () => {
    expect(routes).toEqual(
      expect.arrayContaining([
        path.join("api/v1/openapi.json/route.ts"),
        path.join("api/v1/[...path]/route.ts"),
        path.join("oauth/token/route.ts"),
      ]),
    );
    expect((await fetch(`${base}/api/v1/openapi.json`)).status).toBe(200);
    expect((await fetch(`${base}/api/v1/products/12`)).status).toBe(401);
    expect((await fetch(`${base}/api/v1/products/12/more`)).status).toBe(404);
  });

  it("serves routes with path parameters through the same handlers", async () => {
    const partner = await createPartner();
    const store = await createStore();
    const item = await createItem({ storeId: store.id, title: "Lean layer probe" });
    const response = await fetch(`${base}/api/v1/products/${item.id}`, {
      headers: { authorization: `Bearer ${await partner.token()}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(((await response.json()) as { id: number }).id).toBe(item.id);
  });

  it("keeps the shared error shapes: 401 with WWW-Authenticate, JSON 404, token endpoint 405", async () => {
    const unauthorized = await fetch(`${base}/api/v1/products`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toContain("Bearer");
    const missing = await fetch(`${base}/api/v1/nothing/here`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await fetch(`${base}/oauth/token`)).status).toBe(405);
  });

  it("reads POST bodies (the token endpoint)", async () => {
    const partner = await createPartner();
    const response = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: partner.client.id,
        client_secret: partner.secret,
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { token_type: string }).token_type).toBe("Bearer");
  });

  it("hands pages and paths no route matches to Next; answers HEAD with GET's headers and no body", async () => {
    expect((await fetch(`${base}/docs`)).status).toBe(599);
    expect((await fetch(`${base}/oauth/authorize`)).status).toBe(599);
    expect((await fetch(`${base}/oauth/token/more`)).status).toBe(599);
    expect((await fetch(`${base}/api/v1`)).status).toBe(599);
    const head = await rawRequest(port, rawRequestBytes("HEAD", "/api/v1/openapi.json"), {
      isHead: true,
    });
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBeGreaterThan(100);
    expect(head.body).toBe("");
  });
});

const errorCode = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;

describe("lean API layer: malformed requests are answered, never hang or throw", () => {
  it("answers malformed percent-encoding in the path with a JSON 400 (was: URIError out of the listener, no answer)", async () => {
    const response = await rawRequest(port, rawRequestBytes("GET", "/api/v1/products/%E0%A4%A"));
    expect(response.status).toBe(400);
    expect(errorCode(response.body)).toBe("bad_request");
    expect(response.headers["x-request-id"]).toMatch(/^[A-Za-z0-9._-]+$/);
    const catchAll = await rawRequest(port, rawRequestBytes("GET", "/api/v1/%ZZ/x"));
    expect(catchAll.status).toBe(400);
  });

  it("answers malformed percent-encoding and NUL in the query with a JSON 400", async () => {
    for (const target of [
      "/api/v1/products?q=%E0%A4%A",
      "/api/v1/products?q=%",
      "/api/v1/stores/x?a=%00",
      "/api/v1/stores/%00",
    ]) {
      const response = await rawRequest(port, rawRequestBytes("GET", target));
      expect(response.status, target).toBe(400);
      expect(errorCode(response.body), target).toBe("bad_request");
    }
  });

  it("answers absolute-form and asterisk request targets with a JSON 400", async () => {
    for (const target of ["http://evil.example/api/v1/products", "*"]) {
      const response = await rawRequest(
        port,
        rawRequestBytes(target === "*" ? "OPTIONS" : "GET", target),
      );
      expect(response.status, target).toBe(400);
      expect(errorCode(response.body), target).toBe("bad_request");
    }
  });

  it("puts X-Request-Id on its 404s and on the token endpoint's answers, always our own id (a caller's is only recorded beside it)", async () => {
    const missing = await fetch(`${base}/api/v1/nothing/here`);
    expect(missing.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const token = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-request-id": "probe-1.2_3",
      },
      body: "grant_type=password",
    });
    expect(token.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await fetch(`${base}/oauth/token`, {
      headers: { "x-request-id": "x".repeat(129) },
    });
    expect(tooLong.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("redirects a trailing slash (and repeated slashes) with 308 to the clean path, keeping the query, as Next does", async () => {
    const response = await fetch(`${base}/api/v1/products/?q=red%20shirt&size=M`, {
      redirect: "manual",
    });
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/api/v1/products?q=red%20shirt&size=M");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const repeated = await rawRequest(port, rawRequestBytes("GET", "/api/v1//products"));
    expect(repeated.status).toBe(308);
    expect(repeated.headers.location).toBe("/api/v1/products");
    const token = await fetch(`${base}/oauth/token/`, { method: "POST", redirect: "manual" });
    expect(token.status).toBe(308);
    expect(token.headers.get("location")).toBe("/oauth/token");
  });

  it("sends the site's security headers (next.config.mjs headers()) on its answers", async () => {
    for (const response of [
      await fetch(`${base}/api/v1/products`),
      await fetch(`${base}/api/v1/nothing`),
      await fetch(`${base}/oauth/token`),
    ]) {
      expect(response.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  it("answers a method the route lacks with 405 and Allow, OPTIONS with 204 and Allow, unknown methods with 400, as Next does", async () => {
    const deleted = await fetch(`${base}/api/v1/products`, { method: "DELETE" });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(((await deleted.json()) as { error: { code: string } }).error.code).toBe(
      "method_not_allowed",
    );
    const options = await fetch(`${base}/oauth/token`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    const unknown = await rawRequest(port, rawRequestBytes("PROPFIND", "/api/v1/products"));
    expect(unknown.status).toBe(400);
    expect(errorCode(unknown.body)).toBe("bad_request");
  });

  it("refuses requests to the token endpoint in RFC 6749's shape, never cached", async () => {
    for (const [method, target, status] of [
      ["POST", "/oauth/token?x=%ZZ", 400],
      ["DELETE", "/oauth/token", 405],
    ] as const) {
      const response = await rawRequest(port, rawRequestBytes(method, target));
      expect(response.status, target).toBe(status);
      expect(JSON.parse(response.body)).toEqual({
        error: "invalid_request",
        error_description: expect.any(String),
      });
      expect(response.headers["cache-control"]).toBe("no-store");
    }
  });
});

describe("lean API layer: request bodies", () => {
  // Node 20's Readable.toWeb threw "Controller is already closed" out of the process when a handler
  // cancelled the body (the capped reader past 16 KiB) and the client then kept sending and ended it.
  it("answers 413 to a chunked body over the cap and survives the rest of the body arriving", async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      for (let round = 0; round < 5; round++) {
        const request = (await import("node:http")).request(`${base}/oauth/token`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "transfer-encoding": "chunked",
          },
        });
        const answer = new Promise<number>((resolve, reject) => {
          request.on("response", (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          });
          request.on("error", reject);
        });
        request.write("a".repeat(20 * 1024));
        const status = await answer;
        for (let i = 0; i < 8; i++) request.write("b".repeat(8 * 1024));
        await new Promise<void>((resolve) => request.end(resolve));
        expect(status).toBe(413);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
    }
  });
});
