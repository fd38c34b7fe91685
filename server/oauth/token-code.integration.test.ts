/** POST /oauth/token with grant_type=authorization_code, through the real route handler. */
import { describe, expect, it } from "vitest";
import { createAgent, createLinkingPartner, createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { basic, callApi, obtainCode, pkcePair, token } from "../testing/oauth";
import { operationHandler } from "@/server/edges/rest/rest-router";

const me = operationHandler("GET /api/v1/me");

const redirectUri = "https://partner.example.com/callback";
const callMe = (accessToken: string) => callApi(me, accessToken);

const linked = async () => {
  const { person } = await createPerson({ name: "Ana", sizes: ["M", "8"] });
  const { client, secret } = await createLinkingPartner();
  const { code, verifier } = await obtainCode({
    personId: person.id,
    clientId: client.id,
    redirectUri,
  });
  const exchange = (
    overrides: Record<string, string> = {},
    headers: Record<string, string> = { authorization: basic(client.id, secret) },
  ) =>
    token(
      {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        ...overrides,
      },
      headers,
    );
  return { person, client, secret, code, verifier, exchange };
};

const expectError = async (response: Response, error: string, status = 400) => {
  expect(response.status).toBe(status);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = await response.json();
  expect(body).toEqual({ error, error_description: expect.any(String) });
  return body;
};

describe("authorization_code", () => {
  it("exchanges code + verifier for a 3600 s access token and a refresh token that read the person's data", async () => {
    const { person, exchange } = await linked();
    const response = await exchange();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({
      token_type: "Bearer",
      access_token: expect.stringMatching(/^sat_/),
      refresh_token: expect.stringMatching(/^srt_/),
      expires_in: 3600,
      scope: "profile:read address:read",
    });
    const stored = await db().accessToken.findFirstOrThrow({ where: { personId: person.id } });
    expect(stored.tokenHash).not.toBe(body.access_token);
    expect(stored).toMatchObject({ audience: "api", scopes: ["profile:read", "address:read"] });
    expect(stored.expiresAt.getTime() - Date.now()).toBeGreaterThan(3590_000);
    const profile = await callMe(body.access_token);
    expect(profile.status).toBe(200);
    expect(await profile.json()).toEqual({
      name: "Ana",
      email: person.email,
      email_verified: true,
      sizes: ["M", "8"],
    });
  });

  it("client_secret_post works as well as Basic", async () => {
    const { client, secret, exchange } = await linked();
    expect((await exchange({ client_id: client.id, client_secret: secret }, {})).status).toBe(200);
  });

  it("a wrong code_verifier is invalid_grant, and burns the code", async () => {
    const { exchange } = await linked();
    await expectError(await exchange({ code_verifier: pkcePair().verifier }), "invalid_grant");
    const retry = await exchange();
    await expectError(retry, "invalid_grant");
  });

  it("a missing code_verifier is invalid_grant; a malformed one invalid_request, and it burns the code", async () => {
    const { exchange } = await linked();
    await expectError(await exchange({ code_verifier: "" }), "invalid_grant");
    const second = await linked();
    await expectError(await second.exchange({ code_verifier: "x".repeat(42) }), "invalid_request");
    // Burned by the failed verification too, as by a wrong verifier (RELIABILITY B1-12).
    await expectError(await second.exchange(), "invalid_grant");
  });

  it("a reused code is invalid_grant and revokes the tokens of the first exchange", async () => {
    const { exchange } = await linked();
    const first = await (await exchange()).json();
    expect((await callMe(first.access_token)).status).toBe(200);
    await expectError(await exchange(), "invalid_grant");
    expect((await callMe(first.access_token)).status).toBe(401);
  });

  it("after a reuse, the refresh token of the first exchange is dead too", async () => {
    const { client, secret, exchange } = await linked();
    const first = await (await exchange()).json();
    await exchange();
    await expectError(
      await token(
        { grant_type: "refresh_token", refresh_token: first.refresh_token },
        { authorization: basic(client.id, secret) },
      ),
      "invalid_grant",
    );
  });

  it("an invalid replay (wrong verifier) revokes nothing", async () => {
    const { exchange } = await linked();
    const first = await (await exchange()).json();
    await expectError(await exchange({ code_verifier: pkcePair().verifier }), "invalid_grant");
    expect((await callMe(first.access_token)).status).toBe(200);
  });

  it("an invalid replay (wrong client secret) revokes nothing", async () => {
    const { client, exchange } = await linked();
    const first = await (await exchange()).json();
    await expectError(
      await exchange({}, { authorization: basic(client.id, "wrong") }),
      "invalid_client",
      401,
    );
    expect((await callMe(first.access_token)).status).toBe(200);
  });

  it("two concurrent exchanges: exactly one 200, and its tokens are revoked", async () => {
    const { exchange } = await linked();
    const responses = await Promise.all([exchange(), exchange()]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
    const winner = await responses.find((response) => response.status === 200)!.json();
    expect((await callMe(winner.access_token)).status).toBe(401);
  });

  it("a code from another client is invalid_grant", async () => {
    const { code, verifier } = await linked();
    const other = await createLinkingPartner();
    await expectError(
      await token(
        {
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
        },
        { authorization: basic(other.client.id, other.secret) },
      ),
      "invalid_grant",
    );
  });

  it("a redirect_uri that differs (even by a trailing slash) is invalid_grant", async () => {
    const { exchange } = await linked();
    await expectError(await exchange({ redirect_uri: `${redirectUri}/` }), "invalid_grant");
  });

  it("a code older than 10 minutes is invalid_grant", async () => {
    const { code, exchange } = await linked();
    const { sha256 } = await import("../core/ids");
    await db().authorizationCode.update({
      where: { codeHash: sha256(code) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expectError(await exchange(), "invalid_grant");
  });

  it("codes live 10 minutes at most and are stored hashed", async () => {
    const { code } = await linked();
    const { sha256 } = await import("../core/ids");
    const stored = await db().authorizationCode.findUniqueOrThrow({
      where: { codeHash: sha256(code) },
    });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeLessThanOrEqual(600_000);
  });

  it("a confidential client without its secret is invalid_client", async () => {
    const { client, exchange } = await linked();
    await expectError(await exchange({ client_id: client.id }, {}), "invalid_client", 401);
  });

  it("a public agent exchanges with client_id and PKCE only, and may not send a secret", async () => {
    const { person } = await createPerson();
    const agent = await createAgent();
    const { code, verifier } = await obtainCode({
      personId: person.id,
      clientId: agent.id,
      redirectUri: agent.redirectUris[0],
      scope: "profile:read purchase:write",
      tick: ["purchase:write"],
    });
    const withSecret = await token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: agent.redirectUris[0],
      client_id: agent.id,
      client_secret: "guess",
    });
    await expectError(withSecret, "invalid_client", 401);
    const response = await token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: agent.redirectUris[0],
      client_id: agent.id,
    });
    expect(await response.json()).toMatchObject({
      scope: "profile:read purchase:write",
      refresh_token: expect.any(String),
    });
  });

  it("a public agent cannot use client_credentials", async () => {
    const agent = await createAgent();
    await expectError(
      await token({ grant_type: "client_credentials", client_id: agent.id }),
      "invalid_client",
      401,
    );
  });

  it("a partner without linking is unauthorized_client at the token endpoint", async () => {
    const { client, secret } = await createLinkingPartner({ linking: false });
    await expectError(
      await token(
        {
          grant_type: "authorization_code",
          code: "sac_x",
          code_verifier: pkcePair().verifier,
          redirect_uri: redirectUri,
        },
        { authorization: basic(client.id, secret) },
      ),
      "unauthorized_client",
    );
  });

  it("a resource other than the approved one is invalid_target", async () => {
    const { exchange } = await linked();
    await expectError(await exchange({ resource: "https://evil.example/" }), "invalid_target");
  });

  it("a code whose grant was disconnected before the exchange is invalid_grant", async () => {
    const { person, client, exchange } = await linked();
    await db().oAuthGrant.updateMany({
      where: { personId: person.id, clientId: client.id },
      data: { revokedAt: new Date() },
    });
    await expectError(await exchange(), "invalid_grant");
  });

  it("an unknown code is invalid_grant", async () => {
    const { exchange } = await linked();
    await expectError(await exchange({ code: "sac_unknown" }), "invalid_grant");
  });
});
