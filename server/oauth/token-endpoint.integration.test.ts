/** POST /oauth/token with grant_type=client_credentials, through the real route handler. */
import { describe, expect, it } from "vitest";
import { GET as tokenGet, POST as tokenPost } from "@/app/oauth/token/route";
import { createPartner } from "../../prisma/factories";
import { revokeClient } from "../edges/ops/commands";
import { operationHandler } from "@/server/edges/rest/rest-router";

const products = operationHandler("GET /api/v1/products");

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

const requestToken = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  tokenPost(
    new Request("http://localhost:3000/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  );

const search = (token: string) =>
  products(
    new Request("http://localhost:3000/api/v1/products?per_page=1", {
      headers: { authorization: `Bearer ${token}` },
    }),
  );

describe("client credentials", () => {
  it("client_secret_basic: every scope the client holds when scope is left out", async () => {
    const { client, secret } = await createPartner();
    const response = await requestToken(
      { grant_type: "client_credentials" },
      { authorization: basic(client.id, secret) },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({
      token_type: "Bearer",
      expires_in: 3600,
      access_token: expect.any(String),
      scope: "catalog:read checkout:write",
    });
    expect((await search(body.access_token)).status).toBe(200);
  });

  it("client_secret_post with a narrower scope", async () => {
    const { client, secret } = await createPartner();
    const response = await requestToken({
      grant_type: "client_credentials",
      client_id: client.id,
      client_secret: secret,
      scope: "catalog:read",
    });
    expect((await response.json()).scope).toBe("catalog:read");
  });

  it("never carries profile:read, orders:read or address:read, even when the client holds them", async () => {
    const { client, secret } = await createPartner({
      scopes: ["catalog:read", "profile:read", "orders:read", "address:read"],
    });
    const omitted = await (
      await requestToken({
        grant_type: "client_credentials",
        client_id: client.id,
        client_secret: secret,
      })
    ).json();
    expect(omitted.scope).toBe("catalog:read");
    const asked = await requestToken({
      grant_type: "client_credentials",
      client_id: client.id,
      client_secret: secret,
      scope: "catalog:read profile:read",
    });
    expect(asked.status).toBe(400);
    expect((await asked.json()).error).toBe("invalid_scope");
  });

  it("a scope the client does not hold is invalid_scope", async () => {
    const { client, secret } = await createPartner({ scopes: ["catalog:read"] });
    const response = await requestToken({
      grant_type: "client_credentials",
      client_id: client.id,
      client_secret: secret,
      scope: "checkout:write",
    });
    expect(await response.json()).toEqual({
      error: "invalid_scope",
      error_description: expect.any(String),
    });
  });

  it("a wrong secret with Basic is 401 invalid_client with WWW-Authenticate", async () => {
    const { client } = await createPartner();
    const response = await requestToken(
      { grant_type: "client_credentials" },
      { authorization: basic(client.id, "wrong") },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Basic realm="oauth"');
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await response.json()).error).toBe("invalid_client");
  });

  it("a wrong secret in the form is 401 invalid_client; an unknown client too", async () => {
    const { client } = await createPartner();
    expect(
      (
        await requestToken({
          grant_type: "client_credentials",
          client_id: client.id,
          client_secret: "x",
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await requestToken({
          grant_type: "client_credentials",
          client_id: "cli_unknown",
          client_secret: "x",
        })
      ).status,
    ).toBe(401);
    expect(
      (await requestToken({ grant_type: "client_credentials", client_id: client.id })).status,
    ).toBe(401);
  });

  it("Basic and a form secret together is invalid_request", async () => {
    const { client, secret } = await createPartner();
    const response = await requestToken(
      { grant_type: "client_credentials", client_secret: secret },
      { authorization: basic(client.id, secret) },
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_request");
  });

  it("refuses JSON bodies, repeated parameters, unknown grants and GET", async () => {
    const json = await tokenPost(
      new Request("http://localhost:3000/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    /** RFC 6749 §5.2: 400, a JSON error, never cached (RELIABILITY B1-08, C3). */
    const expectRefused = async (response: Response, status = 400) => {
      expect([
        response.status,
        response.headers.get("cache-control"),
        response.headers.get("content-type"),
        (await response.json()).error,
      ]).toEqual([
        status,
        "no-store",
        expect.stringContaining("application/json"),
        "invalid_request",
      ]);
    };
    await expectRefused(json);
    const repeated = await tokenPost(
      new Request("http://localhost:3000/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&grant_type=client_credentials",
      }),
    );
    await expectRefused(repeated);
    expect((await (await requestToken({ grant_type: "password" })).json()).error).toBe(
      "unsupported_grant_type",
    );
    const get = await tokenGet();
    expect(get.headers.get("allow")).toBe("POST");
    await expectRefused(get, 405);
  });

  it("revoking the client stops its secret and its tokens at once", async () => {
    const { client, secret } = await createPartner();
    const { access_token } = await (
      await requestToken({
        grant_type: "client_credentials",
        client_id: client.id,
        client_secret: secret,
      })
    ).json();
    expect((await search(access_token)).status).toBe(200);
    await revokeClient(client.id);
    expect((await search(access_token)).status).toBe(401);
    expect(
      (
        await requestToken({
          grant_type: "client_credentials",
          client_id: client.id,
          client_secret: secret,
        })
      ).status,
    ).toBe(401);
  });
});

describe("characters no client id holds", () => {
  it("a NUL in client_id, as a form field or in Basic credentials, is refused as OAuth says, never a 500 (PostgreSQL refuses the character)", async () => {
    const { secret } = await createPartner();
    const inForm = await requestToken({
      grant_type: "client_credentials",
      client_id: "a\u0000b",
      client_secret: secret,
    });
    expect(inForm.status).toBe(400);
    expect(await inForm.json()).toMatchObject({ error: "invalid_request" });
    const inBasic = await requestToken(
      { grant_type: "client_credentials" },
      { authorization: basic("a\u0000b", secret) },
    );
    expect(inBasic.status).toBe(401);
    expect(await inBasic.json()).toMatchObject({ error: "invalid_client" });
  });
});
