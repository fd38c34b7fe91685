/** GET /me and GET /me/shipping-address: linked tokens only, and each person's own data only. */
import { describe, expect, it } from "vitest";
import { createLinkingPartner, createPartner, createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { basic, callApi, obtainCode, token } from "../testing/oauth";
import { operationHandler } from "@/server/edges/rest/rest-router";

const me = operationHandler("GET /api/v1/me");
const address = operationHandler("GET /api/v1/me/shipping-address");

const call = (route: typeof me, accessToken: string) => callApi(route, accessToken);

const addressOf = (personId: string, city: string, postalCode: string) =>
  db().shippingAddress.create({
    data: {
      personId,
      name: `Person in ${city}`,
      line1: "1 Main St",
      city,
      province: "ON",
      postalCode,
    },
  });

const linkFor = async (
  personId: string,
  clientId: string,
  secret: string,
  scope = "profile:read address:read",
) => {
  const redirectUri = "https://partner.example.com/callback";
  const { code, verifier } = await obtainCode({ personId, clientId, redirectUri, scope });
  return (
    await (
      await token(
        {
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
        },
        { authorization: basic(clientId, secret) },
      )
    ).json()
  ).access_token as string;
};

describe("linked-account endpoints", () => {
  it("each person's token returns that person's data only (same app, two persons)", async () => {
    const { client, secret } = await createLinkingPartner();
    const { person: a } = await createPerson({ name: "Ana", sizes: ["S"] });
    const { person: b } = await createPerson({ name: "Bo", sizes: ["XL", "11"] });
    await addressOf(a.id, "Toronto", "M5V 3L9");
    await addressOf(b.id, "Ottawa", "K1A 0B1");
    const tokenA = await linkFor(a.id, client.id, secret);
    const tokenB = await linkFor(b.id, client.id, secret);
    expect(await (await call(me, tokenB)).json()).toEqual({
      name: "Bo",
      email: b.email,
      email_verified: true,
      sizes: ["XL", "11"],
    });
    expect(await (await call(address, tokenB)).json()).toMatchObject({
      city: "Ottawa",
      postal_code: "K1A 0B1",
    });
    expect(await (await call(me, tokenA)).json()).toMatchObject({ name: "Ana", email: a.email });
    expect(await (await call(address, tokenA)).json()).toMatchObject({
      city: "Toronto",
      postal_code: "M5V 3L9",
    });
  });

  it("the endpoints take no person id from the request: a person_id parameter is refused, never obeyed", async () => {
    const { client, secret } = await createLinkingPartner();
    const { person: a } = await createPerson({ name: "Ana" });
    const { person: b } = await createPerson({ name: "Bo" });
    const tokenB = await linkFor(b.id, client.id, secret);
    const response = await me(
      new Request(`http://localhost:3000/api/v1/me?person_id=${a.id}`, {
        headers: { authorization: `Bearer ${tokenB}` },
      }),
    );
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).not.toContain(a.email);
  });

  it("a client-credentials token gets 403 on both, with no data", async () => {
    const { token: issue } = await createPartner({ scopes: ["catalog:read", "checkout:write"] });
    const accessToken = await issue();
    for (const route of [me, address]) {
      const response = await call(route, accessToken);
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe("insufficient_scope");
      expect(response.headers.get("www-authenticate")).toContain("insufficient_scope");
    }
  });

  it("a client-credentials token can never carry the person scopes", async () => {
    const { client, secret } = await createPartner({
      scopes: ["catalog:read", "profile:read", "address:read"],
    });
    const response = await token(
      { grant_type: "client_credentials", scope: "profile:read" },
      { authorization: basic(client.id, secret) },
    );
    expect((await response.json()).error).toBe("invalid_scope");
  });

  it("a linked token without the scope gets 403", async () => {
    const { client, secret } = await createLinkingPartner();
    const { person } = await createPerson();
    const profileOnly = await linkFor(person.id, client.id, secret, "profile:read");
    expect((await call(address, profileOnly)).status).toBe(403);
    expect((await call(me, profileOnly)).status).toBe(200);
  });

  it("no saved address is 404 not_found; no token is 401 with WWW-Authenticate", async () => {
    const { client, secret } = await createLinkingPartner();
    const { person } = await createPerson();
    const response = await call(address, await linkFor(person.id, client.id, secret));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("not_found");
    const anonymous = await me(new Request("http://localhost:3000/api/v1/me"));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("resource_metadata");
  });

  it("a token issued for another audience (RFC 8707 resource) is refused here", async () => {
    const { client } = await createLinkingPartner();
    const { person } = await createPerson();
    const { issueAccessToken } = await import("../auth/tokens");
    const { token: otherAudience } = await issueAccessToken(db(), {
      clientId: client.id,
      personId: person.id,
      scopes: ["profile:read"],
      audience: "mcp/account",
      now: new Date(),
    });
    expect((await call(me, otherAudience)).status).toBe(401);
  });

  it("linked requests are rate limited per client and person", async () => {
    const { client, secret } = await createLinkingPartner();
    const { person } = await createPerson();
    const response = await call(me, await linkFor(person.id, client.id, secret));
    expect(response.headers.get("ratelimit-remaining")).toBe("119");
  });
});
