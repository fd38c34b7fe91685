/** GET /oauth/authorize validation (RFC 6749 4.1.2.1 order) and the consent POST, through the real handlers. */
import { describe, expect, it } from "vitest";
import { createAgent, createLinkingPartner, createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { authorize, authorizeParams, pkcePair, submitConsent } from "../testing/oauth";
import { createConsentToken } from "./consent";

const { challenge } = pkcePair();
const redirectUri = "https://partner.example.com/callback";

const expectNoRedirect = async (response: Response) => {
  expect(response.status).toBe(400);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toContain("text/html");
  return response.text();
};

const errorOf = (response: Response) => {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location")!);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  return Object.fromEntries(location.searchParams);
};

describe("GET /oauth/authorize: client and redirect URI (never a redirect)", () => {
  it("an unknown client_id is an error page", async () => {
    expect(
      await expectNoRedirect(await authorize(authorizeParams("cli_nope", redirectUri, challenge))),
    ).toContain("Unknown app");
  });

  it.each([
    ["not registered", "https://evil.example/callback"],
    ["a trailing slash", `${redirectUri}/`],
    ["another port", "https://partner.example.com:8443/callback"],
    ["an extra query", `${redirectUri}?x=1`],
    ["http instead of https", "http://partner.example.com/callback"],
    ["a path traversal", `${redirectUri}/../evil`],
  ])("a redirect_uri with %s is an error page", async (_case, uri) => {
    const { client } = await createLinkingPartner();
    expect(
      await expectNoRedirect(await authorize(authorizeParams(client.id, uri, challenge))),
    ).toContain("has not registered");
  });

  it("a client_id or redirect_uri holding a NUL is an error page, never a 500 (PostgreSQL refuses the character)", async () => {
    expect(
      await expectNoRedirect(await authorize(authorizeParams("a\u0000b", redirectUri, challenge))),
    ).toContain("Invalid request");
    const { client } = await createLinkingPartner();
    await expectNoRedirect(
      await authorize(authorizeParams(client.id, `${redirectUri}\u0000`, challenge)),
    );
  });

  it("a revoked client is an error page", async () => {
    const { client } = await createLinkingPartner();
    await db().apiClient.update({ where: { id: client.id }, data: { revokedAt: new Date() } });
    await expectNoRedirect(await authorize(authorizeParams(client.id, redirectUri, challenge)));
  });

  it("refuses framing on every answer", async () => {
    const response = await authorize(authorizeParams("cli_nope", redirectUri, challenge));
    expect(response.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  });
});

describe("GET /oauth/authorize: other errors go back to the client with state and iss", () => {
  it.each([
    ["missing PKCE", { code_challenge: undefined }, "invalid_request", /code challenge required/],
    [
      "plain PKCE",
      { code_challenge_method: "plain" },
      "invalid_request",
      /transform algorithm not supported/,
    ],
    [
      "no method (defaults to plain)",
      { code_challenge_method: undefined },
      "invalid_request",
      /transform algorithm/,
    ],
    [
      "a 42-character challenge",
      { code_challenge: "a".repeat(42) },
      "invalid_request",
      /43-character/,
    ],
    [
      "a 129-character challenge",
      { code_challenge: "a".repeat(129) },
      "invalid_request",
      /43-character/,
    ],
    [
      "a challenge with +/=",
      { code_challenge: `${"a".repeat(40)}+/=` },
      "invalid_request",
      /43-character/,
    ],
    ["implicit", { response_type: "token" }, "unsupported_response_type", /response_type=code/],
    [
      "code id_token",
      { response_type: "code id_token" },
      "unsupported_response_type",
      /response_type=code/,
    ],
    ["no scope", { scope: undefined }, "invalid_scope", /scope is required/],
    [
      "an unknown scope",
      { scope: "profile:read foo:bar" },
      "invalid_scope",
      /Unknown scope: foo:bar/,
    ],
    [
      "a scope the client does not hold",
      { scope: "profile:read orders:read" },
      "invalid_scope",
      /does not hold: orders:read/,
    ],
    ["a foreign resource", { resource: "https://evil.example/" }, "invalid_target", /resource/],
    ["a relative resource", { resource: "relative/path" }, "invalid_target", /resource/],
    [
      "a resource with a fragment",
      { resource: "http://localhost:3000/api/v1#frag" },
      "invalid_target",
      /resource/,
    ],
  ])("%s", async (_case, overrides, error, description) => {
    const { client } = await createLinkingPartner({
      scopes: ["catalog:read", "profile:read", "address:read"],
    });
    const params: Record<string, string> = authorizeParams(client.id, redirectUri, challenge);
    for (const [name, value] of Object.entries(overrides)) {
      if (value === undefined) delete params[name];
      else params[name] = value;
    }
    const query = errorOf(await authorize(params));
    expect(query).toMatchObject({ error, state: "st-123", iss: "http://localhost:3000" });
    expect(query.error_description).toMatch(description);
    expect(query.code).toBeUndefined();
  });

  it("purchase:write asked by a partner (not registered through the agent door) is invalid_scope", async () => {
    const { client } = await createLinkingPartner({
      scopes: ["catalog:read", "profile:read", "purchase:write"],
    });
    const query = errorOf(
      await authorize(
        authorizeParams(client.id, redirectUri, challenge, {
          scope: "profile:read purchase:write",
        }),
      ),
    );
    expect(query).toMatchObject({ error: "invalid_scope" });
    expect(query.error_description).toContain("/oauth/register/agent");
  });

  it("a client without account linking is unauthorized_client", async () => {
    const { client } = await createLinkingPartner({ linking: false });
    expect(
      errorOf(await authorize(authorizeParams(client.id, redirectUri, challenge))),
    ).toMatchObject({ error: "unauthorized_client" });
  });

  it("a valid request goes on to the consent page with the same parameters", async () => {
    const { client } = await createLinkingPartner();
    const params = authorizeParams(client.id, redirectUri, challenge, {
      resource: "http://localhost:3000/api/v1",
    });
    const response = await authorize(params);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!, "http://localhost:3000");
    expect(location.pathname).toBe("/oauth/consent");
    expect(Object.fromEntries(location.searchParams)).toEqual(params);
  });
});

describe("POST /oauth/authorize: the consent decision", () => {
  const setup = async (options: { verified?: boolean } = {}) => {
    const { person } = await createPerson({ verified: options.verified });
    const { client } = await createLinkingPartner();
    return { person, client, params: authorizeParams(client.id, redirectUri, challenge) };
  };

  it("Approve redirects with a code, state and iss, and records exactly the approved scopes", async () => {
    const { person, client, params } = await setup();
    const response = await submitConsent({ personId: person.id, params });
    const query = errorOf(response);
    expect(query).toMatchObject({
      code: expect.stringMatching(/^sac_/),
      state: "st-123",
      iss: "http://localhost:3000",
    });
    const grant = await db().oAuthGrant.findFirstOrThrow({
      where: { personId: person.id, clientId: client.id },
    });
    expect(grant.scopes).toEqual(["profile:read", "address:read"]);
  });

  it("Deny redirects with access_denied and issues nothing", async () => {
    const { person, client, params } = await setup();
    expect(
      errorOf(await submitConsent({ personId: person.id, params, decision: "deny" })),
    ).toMatchObject({ error: "access_denied", state: "st-123" });
    expect(await db().oAuthGrant.count({ where: { clientId: client.id } })).toBe(0);
  });

  it("an unconfirmed email cannot approve (403, no code, no grant)", async () => {
    const { person, client, params } = await setup({ verified: false });
    const response = await submitConsent({ personId: person.id, params });
    expect(response.status).toBe(403);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("Confirm your email address first");
    expect(await db().oAuthGrant.count({ where: { clientId: client.id } })).toBe(0);
  });

  it("refuses a missing, forged, expired or someone else's CSRF token", async () => {
    const { person, client, params } = await setup();
    const { person: other } = await createPerson();
    const { parameters } = { parameters: params };
    const cases = [
      "",
      "forged.token",
      createConsentToken(other.id, parameters, new Date()),
      createConsentToken(person.id, parameters, new Date(Date.now() - 11 * 60_000)),
      createConsentToken(person.id, { ...parameters, scope: "profile:read" }, new Date()),
    ];
    for (const token of cases) {
      const response = await submitConsent({ personId: person.id, params, token });
      expect(response.status).toBe(403);
      expect(response.headers.get("location")).toBeNull();
    }
    expect(await db().oAuthGrant.count({ where: { clientId: client.id } })).toBe(0);
  });

  it("the same form submitted twice creates one grant", async () => {
    const { person, client, params } = await setup();
    const token = createConsentToken(person.id, params, new Date());
    expect((await submitConsent({ personId: person.id, params, token })).status).toBe(303);
    expect((await submitConsent({ personId: person.id, params, token })).status).toBe(409);
    expect(await db().oAuthGrant.count({ where: { clientId: client.id } })).toBe(1);
  });

  it("without a session the browser is sent to sign in and back to the consent page", async () => {
    const { params } = await setup();
    const response = await submitConsent({ personId: undefined as never, params, token: "x" });
    const location = response.headers.get("location")!;
    expect(location).toMatch(/^\/sign-in\?callbackUrl=/);
    expect(decodeURIComponent(location)).toContain("/oauth/consent?");
  });

  it("opt-in scopes are granted only when ticked; purchase:write only to an agent", async () => {
    const { person } = await createPerson();
    const agent = await createAgent();
    const params = authorizeParams(agent.id, agent.redirectUris[0], challenge, {
      scope: "profile:read purchase:write alerts:write",
    });
    await submitConsent({ personId: person.id, params });
    await submitConsent({ personId: person.id, params, tick: ["alerts:write"] });
    await submitConsent({ personId: person.id, params, tick: ["purchase:write", "alerts:write"] });
    const grants = await db().oAuthGrant.findMany({
      where: { clientId: agent.id },
      orderBy: { createdAt: "asc" },
    });
    expect(grants.map((grant) => grant.scopes)).toEqual([
      ["profile:read"],
      ["profile:read", "alerts:write"],
      ["profile:read", "purchase:write", "alerts:write"],
    ]);
  });

  it("a ticked scope that was not requested is not granted", async () => {
    const { person, client, params } = await setup();
    await submitConsent({
      personId: person.id,
      params,
      tick: ["purchase:write", "alerts:write", "orders:read"],
    });
    expect(
      (await db().oAuthGrant.findFirstOrThrow({ where: { clientId: client.id } })).scopes,
    ).toEqual(["profile:read", "address:read"]);
  });

  it("approving only unticked opt-ins is access_denied", async () => {
    const { person } = await createPerson();
    const agent = await createAgent();
    const params = authorizeParams(agent.id, agent.redirectUris[0], challenge, {
      scope: "purchase:write",
    });
    const location = new URL(
      (await submitConsent({ personId: person.id, params })).headers.get("location")!,
    );
    expect(location.searchParams.get("error")).toBe("access_denied");
  });
});
