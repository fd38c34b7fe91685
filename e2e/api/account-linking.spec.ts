/**
 * [LINKING] Account linking against the running service over HTTP, driven by a real OAuth client
 * (oauth4webapi): discovery, authorization code + PKCE through sign-in and the consent page,
 * the /me endpoints, refresh rotation, disconnect and revocation.
 */
import * as oauth from "oauth4webapi";
import { createShoppingClient } from "../../sdk/client";
import { expect, ops, test } from "../fixtures/api-client";
import { approveThroughPages, signIn } from "../fixtures/linking";

const unique = () => Math.random().toString(36).slice(2, 10);
const redirectUri = "https://partner.example.com/callback";
const options = { [oauth.allowInsecureRequests]: true };

const setup = async (baseURL: string, personFlags: string[] = ["--verified"]) => {
  const email = `linking-${unique()}@example.ca`;
  const password = "sandbox password 1";
  const person = ops(
    "person:create",
    "--email",
    email,
    "--password",
    password,
    "--name",
    "Lina",
    "--sizes",
    "M,8",
    ...personFlags,
    "--address-json",
    JSON.stringify({
      name: "Lina Park",
      line1: "100 Queen St W",
      city: "Toronto",
      province: "ON",
      postal_code: "M5H 2N2",
      country: "CA",
    }),
  );
  const client = ops(
    "client:create",
    "--name",
    "Closet Planner",
    "--scopes",
    "catalog:read checkout:write profile:read orders:read address:read alerts:write",
    "--redirect-uri",
    redirectUri,
    "--linking",
  );
  const issuer = new URL(baseURL);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }),
  );
  return { email, password, person, client, as };
};

const authorizationUrl = async (
  as: oauth.AuthorizationServer,
  clientId: string,
  scope: string,
  state?: string,
) => {
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    ...(state ? { state } : {}),
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  return { url, verifier };
};

test.describe("[LINKING] account linking over HTTP", () => {
  test("a partner links a sandbox shopper and reads profile and address; refresh rotates and a reused refresh token revokes the chain", async ({
    playwright,
    baseURL,
  }) => {
    const { email, password, client, as } = await setup(baseURL!);
    expect(as.issuer).toBe(baseURL);
    const browser = await playwright.request.newContext({ baseURL });
    await signIn(browser, email, password);
    const state = oauth.generateRandomState();
    const { url, verifier } = await authorizationUrl(
      as,
      client.client_id,
      "profile:read address:read",
      state,
    );
    const { callback, consentHtml } = await approveThroughPages(browser, url);
    expect(consentHtml).toContain("Closet Planner");
    expect(consentHtml).not.toContain('value="purchase:write"');

    const registered: oauth.Client = { client_id: client.client_id };
    const auth = oauth.ClientSecretBasic(client.client_secret);
    const params = oauth.validateAuthResponse(as, registered, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      registered,
      await oauth.authorizationCodeGrantRequest(
        as,
        registered,
        auth,
        params,
        redirectUri,
        verifier,
        options,
      ),
    );
    expect(tokens).toMatchObject({ expires_in: 3600, scope: "profile:read address:read" });

    // The typed client (sdk/) holds the refresh token: its first call rotates it (onRotate gets the new one).
    const rotated: string[] = [];
    const api = createShoppingClient({
      origin: baseURL!,
      credentials: {
        grant: "refresh_token",
        clientId: client.client_id,
        clientSecret: client.client_secret,
        refreshToken: tokens.refresh_token!,
        onRotate: (token) => rotated.push(token),
      },
    });
    expect((await api.GET("/me")).data).toEqual({
      name: "Lina",
      email,
      email_verified: true,
      sizes: ["M", "8"],
    });
    expect((await api.GET("/me/shipping-address")).data).toMatchObject({
      line1: "100 Queen St W",
      postal_code: "M5H 2N2",
      province: "ON",
    });
    expect(
      (await api.GET("/products", { params: { query: { per_page: 1 } } })).response.status,
    ).toBe(403);
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).not.toBe(tokens.refresh_token);

    // The first refresh token, presented again, is refused and revokes the whole grant: the client's token stops.
    const reuse = await oauth.refreshTokenGrantRequest(
      as,
      registered,
      auth,
      tokens.refresh_token!,
      options,
    );
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe("invalid_grant");
    expect((await api.GET("/me")).response.status).toBe(401);
    await browser.dispose();
  });

  test("an unconfirmed person sees the confirm-email notice and cannot approve", async ({
    playwright,
    baseURL,
  }) => {
    const { email, password, client, as } = await setup(baseURL!, []);
    const browser = await playwright.request.newContext({ baseURL });
    await signIn(browser, email, password);
    const { url } = await authorizationUrl(as, client.client_id, "profile:read");
    const start = await browser.get(`${url.pathname}${url.search}`, { maxRedirects: 0 });
    const consent = await (await browser.get(start.headers().location)).text();
    expect(consent).toContain("Confirm your email to connect");
    expect(consent).not.toContain('name="consent_token"');
    await browser.dispose();
  });

  test("an assistant registers at the agent door and is offered purchase:write, unticked", async ({
    playwright,
    baseURL,
  }) => {
    const { email, password, as } = await setup(baseURL!);
    const anonymous = await playwright.request.newContext({ baseURL });
    const registration = await anonymous.post("/oauth/register/agent", {
      data: { client_name: "Helpful Assistant", redirect_uris: [redirectUri] },
    });
    expect(registration.status()).toBe(201);
    const agent = await registration.json();
    expect(agent.token_endpoint_auth_method).toBe("none");
    const browser = await playwright.request.newContext({ baseURL });
    await signIn(browser, email, password);
    const { url, verifier } = await authorizationUrl(
      as,
      agent.client_id,
      "profile:read purchase:write",
    );
    const { callback, consentHtml } = await approveThroughPages(browser, url, {
      tick: ["purchase:write"],
    });
    expect(consentHtml).toMatch(
      /<input type="checkbox" name="grant_scope" value="purchase:write"\/?>/,
    );
    const registered: oauth.Client = {
      client_id: agent.client_id,
      token_endpoint_auth_method: "none",
    };
    const params = oauth.validateAuthResponse(as, registered, callback, oauth.expectNoState);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      registered,
      await oauth.authorizationCodeGrantRequest(
        as,
        registered,
        oauth.None(),
        params,
        redirectUri,
        verifier,
        options,
      ),
    );
    expect(tokens.scope).toBe("profile:read purchase:write");
    await Promise.all([anonymous.dispose(), browser.dispose()]);
  });

  test("errors: an unregistered redirect URI gets a page, not a redirect; the metadata and revocation answer per RFC", async ({
    playwright,
    baseURL,
  }) => {
    const { client, as } = await setup(baseURL!);
    const anonymous = await playwright.request.newContext({ baseURL });
    const { url } = await authorizationUrl(as, client.client_id, "profile:read");
    url.searchParams.set("redirect_uri", `${redirectUri}/`);
    const page = await anonymous.get(`${url.pathname}${url.search}`, { maxRedirects: 0 });
    expect(page.status()).toBe(400);
    expect(page.headers().location).toBeUndefined();
    const metadata = await (await anonymous.get("/.well-known/oauth-authorization-server")).json();
    expect(metadata).toMatchObject({
      issuer: baseURL,
      code_challenge_methods_supported: ["S256"],
      registration_endpoint: `${baseURL}/oauth/register/agent`,
    });
    const unknown = await anonymous.post("/oauth/revoke", {
      form: { token: "sat_nothing" },
      headers: {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
      },
    });
    expect(unknown.status()).toBe(200);
    await anonymous.dispose();
  });
});
