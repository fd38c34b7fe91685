/**
 * The lean API layer finds the route modules like Next does and answers with the same handlers;
 * anything it does not serve (pages, HEAD, methods a route lacks) goes to the next handler.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { createLeanApi } from "./lean-api";

let server: Server;
let base: string;
let routes: string[];

beforeAll(async () => {
  const lean = await createLeanApi({ appDir: path.resolve(__dirname, "../../app"), prefixes: ["api/v1", "oauth/token"], origin: "http://localhost:3000" });
  routes = lean.routes;
  server = createServer((request, response) => {
    if (!lean.handle(request, response)) response.writeHead(599).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("lean API layer", () => {
  it("finds every partner API route, the catch-all after the others", () => {
    expect(routes).toEqual(expect.arrayContaining([path.join("api/v1/products/route.ts"), path.join("api/v1/products/[id]/route.ts"), path.join("oauth/token/route.ts")]));
    const apiRoutes = routes.filter((route) => route.startsWith(path.join("api/v1")));
    expect(apiRoutes[apiRoutes.length - 1]).toBe(path.join("api/v1/[...path]/route.ts"));
  });

  it("serves routes with path parameters through the same handlers", async () => {
    const partner = await createPartner();
    const store = await createStore();
    const item = await createItem({ storeId: store.id, title: "Lean layer probe" });
    const response = await fetch(`${base}/api/v1/products/${item.id}`, { headers: { authorization: `Bearer ${await partner.token()}` } });
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
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: partner.client.id, client_secret: partner.secret }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { token_type: string }).token_type).toBe("Bearer");
  });

  it("hands pages, HEAD and other paths to Next", async () => {
    expect((await fetch(`${base}/docs`)).status).toBe(599);
    expect((await fetch(`${base}/api/v1/products`, { method: "HEAD" })).status).toBe(599);
    expect((await fetch(`${base}/oauth/authorize`)).status).toBe(599);
  });
});
