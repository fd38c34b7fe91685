/**
 * The authorization_code and refresh_token grants of POST /oauth/token, run by the OAuth library
 * (server.ts) after token-endpoint.ts parsed the form and the client's credentials.
 */
import { Response as LibraryResponse, type Token } from "@node-oauth/oauth2-server";
import { db } from "../platform/db";
import { basicChallenge, type ClientAuth } from "./client-auth";
import { accessTokenLifetimeSeconds } from "./lifetimes";
import { oauthJson } from "./responses";
import { libraryErrorResponse, libraryRequest, oauthServer } from "./server";

const runGrant = async (auth: ClientAuth, form: URLSearchParams): Promise<Response> => {
  // Hand the library the credentials token-endpoint.ts already decoded (Basic is url-decoded per RFC 6749 2.3.1).
  const params = new URLSearchParams(form);
  params.set("client_id", auth.clientId);
  if (auth.secret !== undefined) params.set("client_secret", auth.secret);
  let token: Token;
  try {
    token = await oauthServer(db(), { purpose: "token" }).token(
      libraryRequest(params),
      new LibraryResponse(),
    );
  } catch (error) {
    return libraryErrorResponse(error, auth.method === "basic" ? basicChallenge : {});
  }
  return oauthJson({
    token_type: "Bearer",
    access_token: token.accessToken,
    expires_in: accessTokenLifetimeSeconds,
    refresh_token: token.refreshToken,
    scope: (token.scope ?? []).join(" "),
  });
};

/** grant_type=authorization_code: code + PKCE verifier + redirect_uri → access and refresh token. */
export const exchangeAuthorizationCode = runGrant;

/** grant_type=refresh_token: a new access token and a new refresh token; the old one dies. */
export const exchangeRefreshToken = runGrant;
