/** POST /oauth/revoke (RFC 7009) and the authorization server metadata (RFC 8414). */
import { describe, expect, it } from "vitest";
import { GET as metadata } from "@/app/.well-known/oauth-authorization-server/route";
import { createLinkingPartner, createPartner } from "../../prisma/factories";
import { basic, callApi, linkedPerson, revoke, token } from "../testing/oauth";
import { operationHandler } from "@/server/edges/rest/rest-router";

const me = operationHandler("GET /api/v1/me");
const products = operationHandler("GET /api/v1/products");

const call = (route: typeof me, accessToken: string) => callApi(route, accessToken);
const linkedTokens = linkedPerson;

describe("POST /oauth/revoke", () => {
  it("revoking an access token stops it on the very next request (200, empty body)", async () => {
    const { auth, tokens } = await linkedTokens();
    const response = await revoke(
      { token: tokens.access_token, token_type_hint: "access_token" },
      auth,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect((await call(me, tokens.access_token)).status).toBe(401);
  });

  it("revoking a refresh token kills the grant's access tokens and the refresh token", async () => {
    const { auth, tokens } = await linkedTokens();
    expect((await revoke({ token: tokens.refresh_token }, auth)).status).toBe(200);
    expect((await call(me, tokens.access_token)).status).toBe(401);
    expect(
      (
        await (
          await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }, auth)
        ).json()
      ).error,
    ).toBe("invalid_grant");
  });

  it("revokes a client-credentials token too", async () => {
    const { client, secret } = await createPartner();
    const { access_token } = await (
      await token({ grant_type: "client_credentials" }, { authorization: basic(client.id, secret) })
    ).json();
    expect(
      (await revoke({ token: access_token }, { authorization: basic(client.id, secret) })).status,
    ).toBe(200);
    expect(
      (
        await products(
          new Request("http://localhost:3000/api/v1/products", {
            headers: { authorization: `Bearer ${access_token}` },
          }),
        )
      ).status,
    ).toBe(401);
  });

  it("answers 200 alike for unknown tokens, garbage and any hint, and never revokes another client's token", async () => {
    const { tokens } = await linkedTokens();
    const other = await createLinkingPartner();
    const otherAuth = { authorization: basic(other.client.id, other.secret) };
    for (const form of <Record<string, string>[]>[
      { token: "sat_unknown" },
      { token: "%%%garbage" },
      { token: "x", token_type_hint: "foo" },
      { token: tokens.access_token },
      { token: tokens.refresh_token },
    ]) {
      const response = await revoke(form, otherAuth);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("");
    }
    expect((await call(me, tokens.access_token)).status).toBe(200);
  });

  it("answers alike, headers and body, whether the token was unknown, garbage, another client's or the caller's own: nothing tells a guesser which (B1-19)", async () => {
    const { auth, tokens } = await linkedTokens();
    const other = await linkedTokens();
    const answers = [];
    for (const form of <Record<string, string>[]>[
      { token: "sat_unknown" },
      { token: "%%%garbage", token_type_hint: "foo" },
      { token: other.tokens.access_token },
      { token: tokens.refresh_token, token_type_hint: "refresh_token" },
    ]) {
      const response = await revoke(form, auth);
      answers.push({
        status: response.status,
        // Each answer has its own request id and time; nothing else may differ.
        headers: [...response.headers].filter(([name]) => !["x-request-id", "date"].includes(name)),
        body: await response.text(),
      });
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ status: 200, body: "" });
    // The caller's own grant was revoked; the other client's token still works.
    expect((await call(me, tokens.access_token)).status).toBe(401);
    expect((await call(me, other.tokens.access_token)).status).toBe(200);
  });

  it("a NUL in client_id is invalid_request, never a 500", async () => {
    const response = await revoke({ token: "x", client_id: "a\u0000" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_request");
  });

  it("needs client authentication", async () => {
    const { client, tokens } = await linkedTokens();
    const response = await revoke(
      { token: tokens.access_token },
      { authorization: basic(client.id, "wrong") },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Basic realm="oauth"');
    expect((await revoke({ token: tokens.access_token })).status).toBe(401);
    expect((await call(me, tokens.access_token)).status).toBe(200);
  });

  it("refuses a request without token or not form-encoded", async () => {
    const { auth } = await linkedTokens();
    expect((await (await revoke({}, auth)).json()).error).toBe("invalid_request");
  });
});

describe("GET /.well-known/oauth-authorization-server", () => {
  it("describes this server exactly", async () => {
    const document = await (await metadata()).json();
    expect(document).toMatchObject({
      issuer: "http://localhost:3000",
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/oauth/token",
      registration_endpoint: "http://localhost:3000/oauth/register/agent",
      revocation_endpoint: "http://localhost:3000/oauth/revoke",
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(document.scopes_supported).toEqual([
      "catalog:read",
      "checkout:write",
      "profile:read",
      "orders:read",
      "address:read",
      "purchase:write",
      "alerts:write",
    ]);
    expect(document.grant_types_supported).not.toContain("password");
    expect(document.grant_types_supported).not.toContain("implicit");
    expect(document.grant_types_supported).toEqual(
      expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]),
    );
  });
});
