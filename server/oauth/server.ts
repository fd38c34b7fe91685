/**
 * The OAuth library (@node-oauth/oauth2-server) configured for this service, and the adapters
 * between Web Requests and the library's request and error types.
 */
import OAuth2Server, { OAuthError, Request as LibraryRequest } from "@node-oauth/oauth2-server";
import type { Db } from "../platform/db";
import { CodeGrant, RefreshGrant } from "./grant-types";
import {
  accessTokenLifetimeSeconds,
  authorizationCodeLifetimeSeconds,
  refreshTokenLifetimeSeconds,
} from "./lifetimes";
import { createOAuthModel } from "./model";
import { oauthError, type OAuthErrorCode } from "./responses";

/** A library server over a model made for this request (its purpose and the person's approval). */
export const oauthServer = (db: Db, options: Parameters<typeof createOAuthModel>[1]) =>
  new OAuth2Server({
    model: createOAuthModel(db, options),
    accessTokenLifetime: accessTokenLifetimeSeconds,
    refreshTokenLifetime: refreshTokenLifetimeSeconds,
    authorizationCodeLifetime: authorizationCodeLifetimeSeconds,
    // PKCE protects the flow (OAuth 2.1 7.5.1); state stays optional and is echoed when given.
    allowEmptyState: true,
    // Public agents send no secret; the model still requires the secret of every confidential client.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    alwaysIssueNewRefreshToken: true,
    extendedGrantTypes: { authorization_code: CodeGrant, refresh_token: RefreshGrant } as never,
  });

/** A library request from parsed form parameters (the library reads body, method and headers). */
export const libraryRequest = (
  form: URLSearchParams,
  options: { method?: string; query?: Record<string, string> } = {},
) => {
  const body = Object.fromEntries(form);
  const encoded = form.toString();
  return new LibraryRequest({
    method: options.method ?? "POST",
    query: options.query ?? {},
    body,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(Buffer.byteLength(encoded)),
    },
  });
};

const knownCodes = new Set<string>([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_target",
]);

/** The library's error as an RFC 6749 5.2 response; anything unexpected is rethrown (500 or 503 upstream). */
export const libraryErrorResponse = (error: unknown, headersFor401: Record<string, string>) => {
  if (!(error instanceof OAuthError) || !knownCodes.has(error.name))
    throw (error as { inner?: unknown })?.inner ?? error;
  const status = error.name === "invalid_client" ? 401 : 400;
  return oauthError(
    error.name as OAuthErrorCode,
    error.message,
    status,
    status === 401 ? headersFor401 : {},
  );
};
