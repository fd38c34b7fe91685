/**
 * The consent decision: POST /oauth/authorize from the consent page. It checks the form's CSRF
 * token (signed, 10 minutes, bound to the signed-in person, to these exact authorize parameters
 * and to a nonce that a grant can use once), validates the request again, refuses a person whose
 * email is unconfirmed, records exactly the scopes the person approved as a grant, and has the
 * OAuth library issue the code and build the redirect.
 */
import { randomBytes } from "node:crypto";
import { Response as LibraryResponse } from "@node-oauth/oauth2-server";
import { db, inTransaction, isDatabaseUnavailable } from "../platform/db";
import { isEmailConfirmed } from "../accounts";
import { BodyTooLargeError, maxFormBytes, readCappedText } from "../platform/http/read-body";
import { createLinkToken, verifyLinkToken } from "../platform/mail/links";
import { sha256 } from "../core/ids";
import { optInScopes, type Scope } from "../auth";
import {
  authorizeParameterNames,
  readAuthorizeParameters,
  validateAuthorizeRequest,
  type AuthorizeParameters,
  type ValidAuthorizeRequest,
} from "./authorize-request";
import { consentPath } from "./authorize-endpoint";
import { authorizationCodeLifetimeSeconds } from "./lifetimes";
import { libraryRequest, oauthServer } from "./server";
import { clientRedirectUrl, errorPage, redirectTo, redirectWithError } from "./pages";
import type { GrantUser } from "./model";
import { withdrawScopes } from "./grants";
import { mirrorMetadataDocumentClient } from "./client-metadata-document";
import { notifyWatchesEnded } from "../price-watches";
import { signInPath } from "../auth";
import { findGrantScopes, insertGrant } from "./store";

const consentLifetimeMs = 10 * 60_000;

const parametersDigest = (parameters: AuthorizeParameters) =>
  sha256(JSON.stringify(authorizeParameterNames.map((name) => parameters[name] ?? null)));

/** The consent form's CSRF token for this person and request. */
export const createConsentToken = (personId: string, parameters: AuthorizeParameters, now: Date) =>
  createLinkToken({
    purpose: "oauth-consent",
    subject: `${personId}:${randomBytes(12).toString("base64url")}:${parametersDigest(parameters)}`,
    expiresAt: new Date(now.getTime() + consentLifetimeMs),
  });

/** The token's nonce when it was made for this person and these parameters and has not expired. */
const readConsentToken = (
  token: string,
  personId: string,
  parameters: AuthorizeParameters,
  now: Date,
) => {
  const [owner, nonce, digest] = verifyLinkToken(token, "oauth-consent", now)?.split(":") ?? [];
  return owner === personId && digest === parametersDigest(parameters) ? nonce : undefined;
};

/** Scopes granted: every requested scope, except opt-in ones the person did not tick. */
const approvedScopes = (requested: readonly Scope[], ticked: readonly string[]) =>
  requested.filter((scope) => !optInScopes.includes(scope) || ticked.includes(scope));

/**
 * Records the grant (first mirroring a metadata-document client as a row) and, in the same transaction, withdraws the opt-in scopes the app asked for and
 * the person left unticked from the app's earlier grants (their latest decision wins: grants.ts
 * `withdrawScopes`), then has the library issue the code.
 */
const issueCode = async (
  request: ValidAuthorizeRequest,
  options: { personId: string; scopes: Scope[]; nonce: string; now: Date },
) => {
  const declined = request.scopes.filter(
    (scope) => optInScopes.includes(scope) && !options.scopes.includes(scope),
  );
  const { grant, endedWatches } = await inTransaction(db(), async (tx) => {
    // A metadata-document client gets its row now that a person approved it (never at fetch).
    if (request.mirror) await mirrorMetadataDocumentClient(tx, request.mirror);
    const grant = await insertGrant(tx, {
      clientId: request.client.id,
      personId: options.personId,
      scopes: options.scopes,
      audience: request.audience,
      consentNonce: options.nonce,
      expiresAt: new Date(options.now.getTime() + authorizationCodeLifetimeSeconds * 1000),
    });
    const endedWatches = declined.length
      ? await withdrawScopes(tx, {
          personId: options.personId,
          clientId: request.client.id,
          scopes: declined,
          now: options.now,
        })
      : [];
    return { grant, endedWatches };
  });
  notifyWatchesEnded(endedWatches);
  const user: GrantUser = {
    id: options.personId,
    grantId: grant.id,
    audience: grant.audience,
    grantScopes: grant.scopes,
  };
  const form = new URLSearchParams(
    Object.entries(request.parameters).filter(([, value]) => value !== undefined) as [
      string,
      string,
    ][],
  );
  form.set("scope", options.scopes.join(" "));
  const response = new LibraryResponse();
  await oauthServer(db(), { purpose: "authorize", approvedScopes: options.scopes }).authorize(
    libraryRequest(form),
    response,
    {
      authenticateHandler: { handle: () => user },
    },
  );
  // The library wrote code and state; the issuer goes with every authorization response (RFC 9207).
  const location = new URL(response.get("location") as string);
  return clientRedirectUrl(request.redirectUri, Object.fromEntries(location.searchParams));
};

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "P2002";

/** The validated request the consent page shows, or undefined when it is no longer valid (start again at /oauth/authorize). */
export const loadConsentRequest = async (query: URLSearchParams) => {
  const result = await validateAuthorizeRequest(db(), query);
  return result.kind === "valid" ? result.request : undefined;
};

/**
 * The requested scopes this person has never granted this app, when they connected it before (an
 * app asking again after 1.6.0 for alerts:write): the consent page marks them New. For an app
 * connecting for the first time every permission is new, so none is marked.
 */
export const newlyRequestedScopes = async (
  personId: string,
  clientId: string,
  requested: readonly Scope[],
): Promise<Scope[]> => {
  const grants = await findGrantScopes(db(), { personId, clientId });
  if (!grants.length) return [];
  const granted = new Set(grants.flat());
  return requested.filter((scope) => !granted.has(scope));
};

/**
 * The opt-in scopes (purchase:write, alerts:write) this person grants this app today, on any live
 * grant: the consent page shows them ticked, so approving again keeps them unless the person
 * unticks one (which then withdraws it: `withdrawOptInScopes` in grants.ts).
 */
export const grantedOptInScopes = async (
  personId: string,
  clientId: string,
  now = new Date(),
): Promise<Scope[]> => {
  const grants = await findGrantScopes(db(), { personId, clientId, liveAt: now });
  const granted = new Set(grants.flat());
  return optInScopes.filter((scope) => granted.has(scope));
};

/** POST /oauth/authorize. `personId` is the signed-in person (from the session), if any. */
export const handleConsentDecision = async (
  request: Request,
  options: { personId: string | undefined; now: Date },
): Promise<Response> => {
  if (
    !(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")
  ) {
    return errorPage(400, "Invalid request", "The approval form was not sent as a form.");
  }
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readCappedText(request, maxFormBytes));
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return errorPage(
        413,
        "Request too large",
        "The approval form was larger than any form this page sends.",
      );
    throw error;
  }
  const { parameters } = readAuthorizeParameters(form);
  const query = new URLSearchParams(Object.entries(parameters) as [string, string][]);
  if (!options.personId) return redirectTo(signInPath(consentPath(query)));
  const nonce = readConsentToken(
    form.get("consent_token") ?? "",
    options.personId,
    parameters,
    options.now,
  );
  if (!nonce)
    return errorPage(
      403,
      "This approval form has expired",
      "For your safety the form works for 10 minutes and only for the account that opened it. Go back to the app and start again.",
    );
  try {
    const result = await validateAuthorizeRequest(db(), query);
    if (result.kind === "page")
      return errorPage(result.status ?? 400, result.title, result.message, result.headers);
    if (result.kind === "redirect")
      return redirectWithError(result.redirectUri, result.error, result.state);
    const valid = result.request;
    if (form.get("decision") !== "approve") {
      return redirectWithError(
        valid.redirectUri,
        { error: "access_denied", description: "The person declined the request." },
        valid.state,
      );
    }
    if (!(await isEmailConfirmed(db(), options.personId))) {
      return errorPage(
        403,
        "Confirm your email address first",
        "Before you approve an app, confirm your email address with the link we sent you. You can send a new link from your account page.",
      );
    }
    const scopes = approvedScopes(valid.scopes, form.getAll("grant_scope"));
    if (!scopes.length)
      return redirectWithError(
        valid.redirectUri,
        { error: "access_denied", description: "The person approved no permission." },
        valid.state,
      );
    return redirectTo(
      await issueCode(valid, { personId: options.personId, scopes, nonce, now: options.now }),
    );
  } catch (error) {
    if (isUniqueViolation(error))
      return errorPage(
        409,
        "Already approved",
        "This approval was already sent. Go back to the app to continue.",
      );
    if (isDatabaseUnavailable(error))
      return errorPage(
        503,
        "Temporarily unavailable",
        "We could not record your decision just now. Please try again in a moment.",
        { "Retry-After": "5" },
      );
    throw error;
  }
};
