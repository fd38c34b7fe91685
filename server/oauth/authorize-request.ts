/**
 * Validation of an authorization request (GET /oauth/authorize, the consent page and the consent
 * POST all run it), in the order RFC 6749 4.1.2.1 needs: the client and the redirect URI first, and
 * while either is wrong there is no redirect (an error page instead, so nobody can use this server
 * as an open redirector); after that, every error goes back to the client's redirect URI.
 */
import { z } from "zod";
import type { Db } from "../platform/db";
import { canLink } from "./client-auth";
import { currentEnvironment, findAuthorizeClient, isCurrentEnvironment } from "../auth";
import { redirectUriProblem } from "../auth";
import {
  isMetadataDocumentClientId,
  type MetadataDocumentClient,
  resolveMetadataDocumentClient,
} from "./client-metadata-document";
import { audienceForResource } from "../auth";
import { agentOnlyScopes, allScopes, isScope, type Scope } from "../auth";
import { findUnstorableInput } from "../core/storable-text";

/** The parameters this server reads; anything else is ignored (RFC 6749 3.1). */
export const authorizeParameterNames = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
] as const;
export type AuthorizeParameters = Partial<Record<(typeof authorizeParameterNames)[number], string>>;

/**
 * `displayName` is what the consent page calls the app: a metadata-document client's name is
 * self-asserted (anyone can publish "Shopping API Helper"), so its client_id host goes beside it,
 * e.g. "Errand Assistant (assistant.example.com)"; a registered client's name was reviewed.
 */
type AuthorizeClient = {
  id: string;
  name: string;
  displayName: string;
  kind: "partner" | "agent";
  redirectUris: string[];
};

/** The consent page's name for a client (see AuthorizeClient). */
export const clientDisplayName = (client: { id: string; name: string }) =>
  isMetadataDocumentClientId(client.id)
    ? `${client.name} (${new URL(client.id).host})`
    : client.name;

export type ValidAuthorizeRequest = {
  client: AuthorizeClient;
  redirectUri: string;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string;
  resource: string | undefined;
  audience: string;
  /** The parameters as received, to carry through sign-in and the consent form. */
  parameters: AuthorizeParameters;
  /** A metadata-document client: the row the approval writes (none exists before a person approves). */
  mirror?: MetadataDocumentClient;
};

export type AuthorizeError = { error: string; description: string };

export type AuthorizeValidation =
  | { kind: "valid"; request: ValidAuthorizeRequest }
  /** Client or redirect URI unusable: show an error page (400, or `status`), never redirect. */
  | {
      kind: "page";
      title: string;
      message: string;
      status?: number;
      headers?: Record<string, string>;
    }
  /** Redirect back to the client with `error` (and state and iss). */
  | { kind: "redirect"; redirectUri: string; state: string | undefined; error: AuthorizeError };

/** S256 challenges are the base64url SHA-256 of the verifier: exactly 43 characters. */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;
const statePattern = /^[\x20-\x7e]{1,512}$/;

/** Reads the parameters of a query string or form, noting any given more than once. */
export const readAuthorizeParameters = (source: URLSearchParams) => {
  const parameters: AuthorizeParameters = {};
  const repeated: string[] = [];
  for (const name of authorizeParameterNames) {
    const values = source.getAll(name);
    if (values.length > 1) repeated.push(name);
    if (values.length) parameters[name] = values[0];
  }
  return { parameters, repeated };
};

/** A registered id (cli_...) or a metadata document URL (client-metadata-document.ts). */
const ZClientId = z.string().min(1).max(2000);

const scopeProblem = (
  requested: string[],
  client: { kind: AuthorizeClient["kind"]; scopes: string[] },
): string | undefined => {
  if (!requested.length)
    return "scope is required: ask for the scopes the app needs, separated by spaces.";
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length)
    return `Unknown scope: ${unknown.join(" ")}. Known scopes: ${allScopes.join(" ")}.`;
  const notHeld = requested.filter((scope) => !client.scopes.includes(scope));
  if (notHeld.length) return `This client does not hold: ${notHeld.join(" ")}.`;
  if (
    client.kind !== "agent" &&
    requested.some((scope) => agentOnlyScopes.includes(scope as Scope))
  ) {
    return "purchase:write is only for assistants registered at /oauth/register/agent.";
  }
  return undefined;
};

/**
 * Validates an authorization request against the registered client, or against the client a
 * metadata document describes (`beforeFetch` runs before a document is really fetched: GET
 * /oauth/authorize counts it against the caller's address).
 */
export const validateAuthorizeRequest = async (
  db: Db,
  source: URLSearchParams,
  options: { beforeFetch?: () => Promise<void> } = {},
): Promise<AuthorizeValidation> => {
  const { parameters, repeated } = readAuthorizeParameters(source);
  const page = (title: string, message: string): AuthorizeValidation => ({
    kind: "page",
    title,
    message,
  });

  if (repeated.includes("client_id") || repeated.includes("redirect_uri"))
    return page("Invalid request", "The app sent client_id or redirect_uri more than once.");
  const unstorable = findUnstorableInput(parameters);
  if (unstorable)
    return page("Invalid request", `The app sent ${unstorable.field}, which ${unstorable.reason}.`);
  const clientId = ZClientId.safeParse(parameters.client_id);
  if (!clientId.success)
    return page("Unknown app", "The app did not say who it is (client_id is missing).");
  let mirror: MetadataDocumentClient | undefined;
  if (isMetadataDocumentClientId(clientId.data)) {
    const resolved = await resolveMetadataDocumentClient(clientId.data, options);
    if (resolved.kind === "busy")
      return {
        kind: "page",
        title: "Temporarily unavailable",
        message: resolved.message,
        status: 503,
        headers: { "Retry-After": "5" },
      };
    if (resolved.kind === "problem") return page("Unknown app", resolved.message);
    mirror = resolved.client;
  }
  const row = await findAuthorizeClient(db, clientId.data);
  // A metadata-document client is the document (a row exists only once someone approved it, and an operator's revocation of it stands).
  const client =
    mirror && (!row || !row.revokedAt)
      ? {
          ...mirror,
          linkingEnabled: true,
          revokedAt: null,
          environment: row?.environment ?? currentEnvironment(),
        }
      : row;
  if (!client || client.revokedAt || !isCurrentEnvironment(client.environment))
    return page("Unknown app", "This app is not registered with us, or its access was withdrawn.");
  const redirectUri = parameters.redirect_uri;
  if (!redirectUri)
    return page(
      "Invalid request",
      "The app did not say where to send you back (redirect_uri is missing).",
    );
  if (
    !client.redirectUris.includes(redirectUri) ||
    redirectUriProblem(redirectUri, currentEnvironment())
  ) {
    return page(
      "Invalid redirect address",
      "The app asked to send you back to an address it has not registered with us. Nothing was shared.",
    );
  }

  const state = parameters.state;
  const back = (error: string, description: string): AuthorizeValidation => ({
    kind: "redirect",
    redirectUri,
    state: state !== undefined && statePattern.test(state) ? state : undefined,
    error: { error, description },
  });
  if (repeated.length) return back("invalid_request", `Parameter ${repeated[0]} is repeated.`);
  if (!canLink(client))
    return back("unauthorized_client", "Account linking is not switched on for this client.");
  if (state !== undefined && !statePattern.test(state))
    return back("invalid_request", "state must be 1 to 512 printable ASCII characters.");
  if (!parameters.response_type) return back("invalid_request", "response_type is required.");
  if (parameters.response_type !== "code")
    return back("unsupported_response_type", "Only response_type=code is supported.");
  if (parameters.code_challenge === undefined)
    return back("invalid_request", "code challenge required (PKCE with S256).");
  if (parameters.code_challenge_method !== "S256")
    return back(
      "invalid_request",
      "transform algorithm not supported: code_challenge_method must be S256.",
    );
  if (!s256Challenge.test(parameters.code_challenge))
    return back(
      "invalid_request",
      "code_challenge must be the 43-character base64url SHA-256 of the code verifier.",
    );
  const scopes = [...new Set((parameters.scope ?? "").split(" ").filter(Boolean))];
  const problem = scopeProblem(scopes, client);
  if (problem) return back("invalid_scope", problem);
  const audience = audienceForResource(parameters.resource);
  if (!audience)
    return back("invalid_target", "resource is not a resource this server issues tokens for.");

  return {
    kind: "valid",
    request: {
      client: {
        id: client.id,
        name: client.name,
        displayName: clientDisplayName(client),
        kind: client.kind,
        redirectUris: client.redirectUris,
      },
      redirectUri,
      scopes: scopes as Scope[],
      state,
      codeChallenge: parameters.code_challenge,
      resource: parameters.resource,
      audience,
      parameters,
      mirror,
    },
  };
};
