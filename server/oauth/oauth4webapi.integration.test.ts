/**
 * A real OAuth client (oauth4webapi) drives discovery, authorization code + PKCE, the API call,
 * refresh and revocation against this server's route handlers, in process. The browser part
 * (sign-in and the consent click) is the consent form's POST for a known person; Playwright
 * covers it through real pages (e2e/api/account-linking.spec.ts, e2e/ui/accounts.spec.ts).
 */
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { GET as metadataRoute } from "@/app/.well-known/oauth-authorization-server/route";
import { POST as tokenRoute } from "@/app/oauth/token/route";
import { POST as revokeRoute } from "@/app/oauth/revoke/route";
import {
  createAgent,
  createLinkingPartner,
  createPartner,
  createPerson,
} from "../../prisma/factories";
import { db } from "../platform/db";
import { authorize, submitConsent } from "../testing/oauth";
import { operationHandler } from "@/server/edges/rest/rest-router";

const meRoute = operationHandler("GET /api/v1/me");
const addressRoute = operationHandler("GET /api/v1/me/shipping-address");
const productsRoute = operationHandler("GET /api/v1/products");

const issuer = new URL("http://localhost:3000");

/** Routes the client's HTTP requests to the app's handlers, as the server would. */
const routes: Record<string, (request: Request) => Response | Promise<Response>> = {
  "GET /.well-known/oauth-authorization-server": () => metadataRoute(),
  "POST /oauth/token": tokenRoute,
  "POST /oauth/revoke": revokeRoute,
  "GET /api/v1/me": meRoute,
  "GET /api/v1/me/shipping-address": addressRoute,
  "GET /api/v1/products": productsRoute,
};
const appFetch = async (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
) => {
  const request = new Request(url, {
    method: init.method,
    headers: init.headers,
    body: init.body as BodyInit | undefined,
  });
  const route = routes[`${request.method} ${new URL(request.url).pathname}`];
  if (!route) throw new Error(`no route for ${request.method} ${request.url}`);
  return route(request);
};
const options = { [oauth.customFetch]: appFetch, [oauth.allowInsecureRequests]: true };

const discover = async () =>
  oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }),
  );

/** The browser's part: /oauth/authorize, then the person approves on the consent page. */
const browserApproves = async (authorizationUrl: URL, personId: string, tick: string[] = []) => {
  const start = await authorize(Object.fromEntries(authorizationUrl.searchParams));
  expect(start.status).toBe(303);
  const consentUrl = new URL(start.headers.get("location")!, issuer);
  expect(consentUrl.pathname).toBe("/oauth/consent");
  const decision = await submitConsent({
    personId,
    params: Object.fromEntries(consentUrl.searchParams),
    tick,
  });
  return new URL(decision.headers.get("location")!);
};

describe("oauth4webapi against the authorization server", () => {
  it("a partner links a person: discovery, code + PKCE, /me, refresh, revocation", async () => {
    const { person } = await createPerson({ name: "Ana", sizes: ["M"] });
    await db().shippingAddress.create({
      data: {
        personId: person.id,
        name: "Ana",
        line1: "1 Main St",
        city: "Toronto",
        province: "ON",
        postalCode: "M5V 3L9",
      },
    });
    const { client: registered, secret } = await createLinkingPartner();
    const as = await discover();
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    const client: oauth.Client = { client_id: registered.id };
    const clientAuth = oauth.ClientSecretBasic(secret);
    const redirectUri = registered.redirectUris[0];

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: "profile:read address:read",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const callback = await browserApproves(url, person.id);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        params,
        redirectUri,
        verifier,
        options,
      ),
    );
    expect(tokens).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      scope: "profile:read address:read",
    });

    const me = await oauth.protectedResourceRequest(
      tokens.access_token,
      "GET",
      new URL("/api/v1/me", issuer),
      undefined,
      undefined,
      options,
    );
    expect(await me.json()).toEqual({
      name: "Ana",
      email: person.email,
      email_verified: true,
      sizes: ["M"],
    });
    const address = await oauth.protectedResourceRequest(
      tokens.access_token,
      "GET",
      new URL("/api/v1/me/shipping-address", issuer),
      undefined,
      undefined,
      options,
    );
    expect(await address.json()).toMatchObject({
      city: "Toronto",
      province: "ON",
      postal_code: "M5V 3L9",
      country: "CA",
    });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, options),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(
      (
        await oauth.protectedResourceRequest(
          refreshed.access_token,
          "GET",
          new URL("/api/v1/me", issuer),
          undefined,
          undefined,
          options,
        )
      ).status,
    ).toBe(200);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, options),
    );
    const afterRevocation = await oauth
      .protectedResourceRequest(
        refreshed.access_token,
        "GET",
        new URL("/api/v1/me", issuer),
        undefined,
        undefined,
        options,
      )
      .catch((error) => error);
    expect(afterRevocation).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect(afterRevocation.status).toBe(401);
    expect(afterRevocation.cause[0]).toMatchObject({
      scheme: "bearer",
      parameters: { error: "invalid_token" },
    });
  });

  it("an assistant registered as a public client links with PKCE only and gets purchase:write only when ticked", async () => {
    const { person } = await createPerson();
    const agent = await createAgent();
    const as = await discover();
    const client: oauth.Client = { client_id: agent.id, token_endpoint_auth_method: "none" };
    const redirectUri = agent.redirectUris[0];
    for (const tick of [[], ["purchase:write"]]) {
      const verifier = oauth.generateRandomCodeVerifier();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: agent.id,
        redirect_uri: redirectUri,
        scope: "catalog:read profile:read purchase:write",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      }).toString();
      const callback = await browserApproves(url, person.id, tick);
      const params = oauth.validateAuthResponse(as, client, callback, oauth.expectNoState);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          params,
          redirectUri,
          verifier,
          options,
        ),
      );
      expect(tokens.scope).toBe(
        tick.length ? "catalog:read profile:read purchase:write" : "catalog:read profile:read",
      );
    }
  });

  it("the client sees the error a person's Deny produces", async () => {
    const { person } = await createPerson();
    const { client: registered } = await createLinkingPartner();
    const as = await discover();
    const client: oauth.Client = { client_id: registered.id };
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: registered.id,
      redirect_uri: registered.redirectUris[0],
      scope: "profile:read",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const start = await authorize(Object.fromEntries(url.searchParams));
    const consentUrl = new URL(start.headers.get("location")!, issuer);
    const denied = await submitConsent({
      personId: person.id,
      params: Object.fromEntries(consentUrl.searchParams),
      decision: "deny",
    });
    expect(() =>
      oauth.validateAuthResponse(as, client, new URL(denied.headers.get("location")!), state),
    ).toThrow(oauth.AuthorizationResponseError);
  });

  it("client_credentials: the REST API's own resource is served; a resource it cannot serve is invalid_target (RFC 8707)", async () => {
    const { client: registered, secret } = await createPartner();
    const as = await discover();
    const client: oauth.Client = { client_id: registered.id };
    const clientAuth = oauth.ClientSecretBasic(secret);
    const grant = (resource: string) =>
      oauth.clientCredentialsGrantRequest(as, client, clientAuth, { resource }, options);

    const tokens = await oauth.processClientCredentialsResponse(
      as,
      client,
      await grant(new URL("/api/v1", issuer).href),
    );
    expect(tokens.scope).toBe("catalog:read checkout:write");
    const products = await oauth.protectedResourceRequest(
      tokens.access_token,
      "GET",
      new URL("/api/v1/products?per_page=1", issuer),
      undefined,
      undefined,
      options,
    );
    expect(products.status).toBe(200);

    // The account connector acts for a person, whom this grant has not; an unknown resource is refused too.
    for (const resource of [
      new URL("/mcp/account", issuer).href,
      new URL("/mcp", issuer).href,
      "https://elsewhere.example/api/v1",
    ]) {
      const refusal = await oauth
        .processClientCredentialsResponse(as, client, await grant(resource))
        .catch((error: unknown) => error);
      expect(refusal, resource).toBeInstanceOf(oauth.ResponseBodyError);
      expect(refusal).toMatchObject({ status: 400, error: "invalid_target" });
      expect((refusal as oauth.ResponseBodyError).error_description).toMatch(/resource/);
    }
  });
});
