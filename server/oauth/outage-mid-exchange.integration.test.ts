/**
 * An outage between spending a code (or refresh token) and saving the tokens it buys must leave
 * the credential unspent: the client's retry after recovery gets its tokens, instead of being
 * taken for a replay that revokes the grant. The proxy cuts the database just before the new
 * tokens' INSERT reaches the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseProxy } from "../testing/db-proxy";

const proxy = databaseProxy();
beforeAll(() => proxy.use());
afterAll(() => proxy.cut());

/** Retries `call` while it answers 503 (the pool reconnecting), as a client honouring Retry-After would. */
const retryWhileUnavailable = async (call: () => Promise<Response>) => {
  for (let attempt = 0; ; attempt++) {
    const response = await call();
    if (response.status !== 503 || attempt === 30) return response;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

describe("database outage in the middle of a token exchange", () => {
  it("authorization_code: the retry after recovery gets the tokens; the grant is not revoked", async () => {
    const { db } = await import("../platform/db");
    const { createLinkingPartner, createPerson } = await import("../../prisma/factories");
    const { basic, obtainCode, token } = await import("../testing/oauth");
    const { person } = await createPerson();
    const { client, secret } = await createLinkingPartner();
    const redirectUri = client.redirectUris[0];
    const { code, verifier } = await obtainCode({
      personId: person.id,
      clientId: client.id,
      redirectUri,
    });
    const exchange = () =>
      token(
        {
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
        },
        { authorization: basic(client.id, secret) },
      );

    proxy.cutBefore(/INSERT INTO "[^"]*"\."access_tokens"/);
    const first = await exchange();
    expect(first.status).toBe(503);
    await proxy.open();

    const retry = await retryWhileUnavailable(exchange);
    expect(await retry.json()).toMatchObject({
      token_type: "Bearer",
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    const grant = await db().oAuthGrant.findFirstOrThrow({
      where: { personId: person.id, clientId: client.id },
    });
    expect(grant.revokedAt).toBeNull();
  }, 30_000);

  it("refresh_token: the retry after recovery rotates the token; the grant is not revoked", async () => {
    const { db } = await import("../platform/db");
    const { linkedPerson } = await import("../testing/oauth");
    const { person, client, tokens, refresh } = await linkedPerson();

    proxy.cutBefore(/INSERT INTO "[^"]*"\."refresh_tokens"/);
    const first = await refresh(tokens.refresh_token);
    // Never invalid_grant, which would make the client throw its refresh token away (B4-02).
    expect([first.status, first.headers.get("retry-after"), (await first.json()).error]).toEqual([
      503,
      "5",
      "temporarily_unavailable",
    ]);
    await proxy.open();

    const retry = await retryWhileUnavailable(() => refresh(tokens.refresh_token));
    expect(await retry.json()).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    const grant = await db().oAuthGrant.findFirstOrThrow({
      where: { personId: person.id, clientId: client.id },
    });
    expect(grant.revokedAt).toBeNull();
  }, 30_000);
});
