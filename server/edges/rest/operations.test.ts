/**
 * The operation table is the one declaration of the public API: no route file, OpenAPI operation or
 * MCP tool without its entry, no entry without its route. Who may call an entry is its procedure's
 * meta, and nothing else: the document's security and 403 are that meta, the entry's call reaches
 * that procedure, and the procedure refuses without its scope.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentOnlyScopes,
  allScopes,
  clientCredentialsScopes,
  personScopes,
} from "../../auth/scopes";
import { AppError } from "../../core/errors";
import { openApiDocument } from "./openapi";
import { toAppError } from "../../platform/http/respond";
import { createPartner } from "../../../prisma/factories";
import { partnerCaller, shopperCaller, visitorCaller } from "../../testing/callers";
import { operations, toolOperations } from "./operations";
import { scopeOf, type Operation } from "./operation";
import { type Meta, scopeList } from "../../platform/trpc/init";
import { appRouter } from "../trpc/root";
import { procedureMeta } from "../trpc/procedure-meta";
import { type Caller, createCaller } from "../trpc/caller";
import { createInnerContext } from "../../platform/trpc/context";
import { admit } from "../../platform/trpc/admission";
import { handleRestRequest } from "./rest-router";

const apiRoot = path.resolve(__dirname, "../../../app", "api", "v1");
const routeFolders = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFolders(full);
    return name === "route.ts" ? [path.relative(apiRoot, dir)] : [];
  });

/** Route files under app/api/v1 that are not operations: the table's own catch-all and the document. */
const notOperations = ["[...path]", "openapi.json"];

/** A concrete path for an entry: each {parameter} filled in. */
const samplePath = (openApiPath: string) => `/api/v1${openApiPath.replace(/\{[^}]+\}/g, "x1")}`;

describe("operation table", () => {
  it("is the only way into /api/v1: no route file besides the catch-all and openapi.json", () => {
    const extra = routeFolders(apiRoot).filter((folder) => !notOperations.includes(folder));
    // A route file would shadow the table (Next and the lean layer prefer it to the catch-all): declare the operation in server/api/ instead.
    expect(
      extra,
      "route files without a table entry (see server/edges/rest/operations.ts)",
    ).toEqual([]);
  });

  it("keys each entry 'METHOD /api/v1/path' once, with unique operationIds and tool names", () => {
    const ids = operations.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of operations) {
      expect(entry.id).toMatch(
        /^(GET|POST|PUT|PATCH|DELETE) \/api\/v1(\/([a-z0-9._-]+|\{[a-z_]+\}))+$/,
      );
      expect(entry.id).toBe(`${entry.method} /api/v1${entry.path}`);
      // The lifecycle lives only in the database (server/edges/rest/lifecycle-store.ts), never beside it in the table.
      expect(entry).not.toHaveProperty("lifecycle");
    }
    const operationIds = operations.map((entry) => entry.operationId);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it("has an entry for every OpenAPI operation and an OpenAPI operation for every entry", () => {
    const documented = Object.entries(openApiDocument().paths ?? {}).flatMap(
      ([documentedPath, item]) =>
        Object.keys(item ?? {})
          .filter((key) => ["get", "post", "put", "patch", "delete"].includes(key))
          .map((method) => `${method.toUpperCase()} /api/v1${documentedPath}`),
    );
    expect(documented.sort()).toEqual(operations.map((entry) => entry.id).sort());
  });

  it("routes every entry: its method reaches its handler (401 without a token), OPTIONS lists it in Allow", async () => {
    for (const entry of operations) {
      const url = `http://localhost:3000${samplePath(entry.path)}`;
      const response = await handleRestRequest(new Request(url, { method: entry.method }));
      expect(response.status, entry.id).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code, entry.id).toBe(
        "unauthorized",
      );
      const options = await handleRestRequest(new Request(url, { method: "OPTIONS" }));
      expect(options.status, entry.id).toBe(204);
      expect(options.headers.get("allow")?.split(", "), entry.id).toContain(entry.method);
    }
  });

  it("answers a path no entry has with the JSON 404, and a method the path lacks with 405 and Allow", async () => {
    const missing = await handleRestRequest(
      new Request("http://localhost:3000/api/v1/products/12/more"),
    );
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
    const wrongMethod = await handleRestRequest(
      new Request("http://localhost:3000/api/v1/checkout/quotes", { method: "GET" }),
    );
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("OPTIONS, POST");
  });

  it("names the MCP tools of both connectors (issue 11)", () => {
    expect(
      toolOperations()
        .map((entry) => entry.tool)
        .sort(),
    ).toEqual(
      [
        "search_products",
        "get_product",
        "get_price_history",
        "get_store",
        "list_categories",
        "create_quote",
        "create_checkout",
        "get_checkout",
        "cancel_checkout",
        "get_me",
        "get_my_shipping_address",
        "list_my_orders",
        "get_my_order",
        "list_my_purchases",
        "preview_price_watch",
        "list_price_watch_evaluations",
        "create_search_watch",
        "list_search_watches",
        "get_search_watch",
        "cancel_search_watch",
        "create_price_watch_group",
        "list_price_watch_groups",
        "get_price_watch_group",
        "cancel_price_watch_group",
      ].sort(),
    );
  });

  it("every procedure declares who may call it in its meta", () => {
    const callers = ["partner", "person", "assistant", "client", "shopper", "public"];
    const procedures = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { meta?: Meta } }
    >;
    for (const [path, procedure] of Object.entries(procedures)) {
      const meta = procedure._def.meta;
      expect(callers, path).toContain(meta?.caller);
      if (meta && "scope" in meta)
        for (const scope of scopeList(meta.scope)) expect(allScopes, path).toContain(scope);
    }
  });

  it("reads each entry's caller and scope from its procedure's meta, and documents exactly that", () => {
    const document = openApiDocument();
    for (const entry of operations) {
      const meta = procedureMeta(entry.procedure);
      expect(entry.meta, entry.id).toBe(meta);
      expect(["partner", "person", "assistant", "client"], entry.id).toContain(meta?.caller);
      const scopes = meta && "scope" in meta ? scopeList(meta.scope) : [];
      if (meta?.caller !== "client") expect(scopes.length, entry.id).toBeGreaterThan(0);
      for (const scope of scopes) expect(allScopes, entry.id).toContain(scope);
      const documented = document.paths?.[entry.path]?.[entry.method.toLowerCase() as "get"];
      // One security requirement per scope that admits the call, any one of them.
      expect(documented?.security, entry.id).toEqual(
        scopes.length ? scopes.map((scope) => ({ oauth2: [scope] })) : [{ oauth2: [] }],
      );
      expect(Object.keys(documented?.responses ?? {}).includes("403"), entry.id).toBe(
        scopes.length > 0,
      );
    }
  });

  it("declares scopes that fit the caller: a partner's any client may hold, a person's only a person grants", () => {
    for (const entry of operations) {
      const { meta } = entry;
      if (meta.caller === "partner")
        expect(clientCredentialsScopes, entry.id).toContain(meta.scope);
      if (meta.caller === "person")
        for (const scope of scopeList(meta.scope)) expect(personScopes, entry.id).toContain(scope);
      if (meta.caller === "assistant")
        for (const scope of scopeList(meta.scope))
          expect(agentOnlyScopes, entry.id).toContain(scope);
    }
  });

  it("calls exactly the procedure it names, once", async () => {
    for (const entry of operations) {
      const called: string[] = [];
      // A caller that records the path it is called at and answers anything.
      const anything: unknown = new Proxy(() => undefined, {
        get: (_target, key) => (key === "then" ? undefined : anything),
      });
      const recording = (path: string[]): unknown =>
        new Proxy(() => undefined, {
          get: (_target, key) => recording([...path, String(key)]),
          apply: () => {
            called.push(path.join("."));
            return Promise.resolve(anything);
          },
        });
      await entry.call({
        caller: recording([]) as Caller,
        query: {},
        params: {},
        body: {},
        headers: { "Idempotency-Key": "k" },
      } as Parameters<Operation["call"]>[0]);
      expect(called, entry.id).toEqual([entry.procedure]);
    }
  });

  it("is what the procedures check: each refuses a token that has every scope but the entry's", async () => {
    for (const entry of operations) {
      const scope = scopeOf(entry);
      if (scope === null) continue; // checked by the client-entry tests below
      const caller = partnerCaller(allScopes.filter((other) => other !== scope));
      // The scope middleware runs before input parsing, so no input is needed to reach it.
      const error = await entry
        .call({
          caller,
          query: undefined,
          params: undefined,
          body: undefined,
          headers: { "Idempotency-Key": "k" },
        })
        .then(
          () => undefined,
          (thrown: unknown) => toAppError(thrown),
        );
      expect(error, entry.id).toBeInstanceOf(AppError);
      expect(error?.code, entry.id).toBe("insufficient_scope");
      expect(error?.message, entry.id).toContain(scope);
    }
  });

  it("checks a REST call once: the procedure takes the edge's verdict for its own meta, and only for it", async () => {
    const meta = procedureMeta("catalog.listCategories")!;
    // What the REST edge hands on after admitting the call (with-partner.ts); this token has no scope at all.
    const caller = createCaller(
      createInnerContext({
        requestId: "test",
        actor: { kind: "client", clientId: "cli_once", tokenId: "tok_once", scopes: [] },
        admitted: { meta, admission: admit(meta, { kind: "system" }) },
      }),
    );
    await expect(caller.catalog.listCategories()).resolves.toHaveProperty("data");
    // Another procedure, though of the same scope, is checked as usual.
    const refused = await caller.catalog.getStore({ store_slug: "nowhere" }).then(
      () => undefined,
      (thrown: unknown) => toAppError(thrown),
    );
    expect(refused?.code).toBe("insufficient_scope");
  });

  const anyTokenEntries = operations.filter((entry) => entry.meta.caller === "client");

  it("admits any token of the client to a client entry's procedure, and nobody else", async () => {
    expect(anyTokenEntries.map((entry) => entry.id)).toContain("POST /api/v1/webhook-endpoints");
    for (const entry of anyTokenEntries) {
      const args = { query: undefined, params: undefined, body: undefined, headers: {} };
      // A token without a single scope gets past the guard (the call may then refuse the missing input, never the token).
      const error = await entry.call({ ...args, caller: partnerCaller([]) }).then(
        () => undefined,
        (thrown: unknown) => toAppError(thrown),
      );
      expect(["unauthorized", "insufficient_scope"], entry.id).not.toContain(error?.code);
      // A signed-in shopper on the pages or a visitor is not a client.
      for (const caller of [visitorCaller(), shopperCaller("per_x")]) {
        const refused = await entry.call({ ...args, caller }).then(
          () => undefined,
          (thrown: unknown) => toAppError(thrown),
        );
        expect(refused?.code, entry.id).toBe("unauthorized");
      }
    }
  });

  it("serves a client entry over REST to a token without scopes (no 403), documented with no scope and no 403", async () => {
    const partner = await createPartner({ scopes: [] });
    const token = await partner.token([]);
    const document = openApiDocument();
    for (const entry of anyTokenEntries) {
      const response = await handleRestRequest(
        new Request(`http://localhost:3000${samplePath(entry.path)}`, {
          method: entry.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(entry.input.body ? { "content-type": "application/json" } : {}),
          },
          ...(entry.input.body ? { body: "{}" } : {}),
        }),
      );
      expect([401, 403], entry.id).not.toContain(response.status);
      const documented = document.paths?.[entry.path]?.[entry.method.toLowerCase() as "get"];
      expect(documented?.security, entry.id).toEqual([{ oauth2: [] }]);
      expect(Object.keys(documented?.responses ?? {}), entry.id).not.toContain("403");
    }
  });
});
