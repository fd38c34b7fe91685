/**
 * With the database unreachable, /oauth/* answers 503 with Retry-After, never invalid_grant (which
 * would make clients drop valid refresh tokens) and never 200 from /oauth/revoke (the client must
 * assume the token still works); /oauth/authorize cannot check the redirect URI, so it shows a page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseProxy } from "../testing/db-proxy";

const proxy = databaseProxy();
beforeAll(() => proxy.use());
afterAll(() => proxy.cut());

describe("database outage at /oauth/*", () => {
  it("token, revoke, register and authorize answer 503 with Retry-After", async () => {
    const { createLinkingPartner, createPerson } = await import("../../prisma/factories");
    const { authorize, authorizeParams, basic, obtainCode, pkcePair, revoke, token } =
      await import("../testing/oauth");
    const { POST: register } = await import("@/app/oauth/register/agent/route");
    const { person } = await createPerson();
    const { client, secret } = await createLinkingPartner();
    const redirectUri = client.redirectUris[0];
    const { code, verifier } = await obtainCode({
      personId: person.id,
      clientId: client.id,
      redirectUri,
    });
    await proxy.cut();

    const exchange = await token(
      {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
      },
      { authorization: basic(client.id, secret) },
    );
    expect(exchange.status).toBe(503);
    expect(exchange.headers.get("retry-after")).toBe("5");
    expect((await exchange.json()).error).toBe("temporarily_unavailable");

    const refresh = await token(
      { grant_type: "refresh_token", refresh_token: "srt_x" },
      { authorization: basic(client.id, secret) },
    );
    expect(refresh.status).toBe(503);

    const revoked = await revoke({ token: "sat_x" }, { authorization: basic(client.id, secret) });
    expect(revoked.status).toBe(503);
    expect(revoked.headers.get("retry-after")).toBe("5");

    const registered = await register(
      new Request("http://localhost:3000/oauth/register/agent", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "A", redirect_uris: ["https://a.example/cb"] }),
      }),
    );
    expect(registered.status).toBe(503);

    const page = await authorize(authorizeParams(client.id, redirectUri, pkcePair().challenge));
    expect(page.status).toBe(503);
    expect(page.headers.get("location")).toBeNull();
    expect(page.headers.get("retry-after")).toBe("5");

    // The code survived the outage: the exchange works once the database is back.
    await proxy.open();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (
        await token(
          {
            grant_type: "authorization_code",
            code,
            code_verifier: verifier,
            redirect_uri: redirectUri,
          },
          { authorization: basic(client.id, secret) },
        )
      ).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  }, 30_000);
});
