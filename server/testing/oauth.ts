/**
 * Helpers for account-linking tests: PKCE pairs, the real route handlers of /oauth/*, and a code
 * obtained the way a person obtains one (the consent form's POST with its CSRF token), with the
 * session replaced by a known person id.
 */
import { createHash, randomBytes } from "node:crypto";
import { GET as authorizeGet } from "@/app/oauth/authorize/route";
import { POST as tokenPost } from "@/app/oauth/token/route";
import { POST as revokePost } from "@/app/oauth/revoke/route";
import { createLinkingPartner, createPerson } from "../../prisma/factories";
import { handleConsentDecision, createConsentToken } from "../oauth/consent";
import { readAuthorizeParameters } from "../oauth/authorize-request";
import { toAppError } from "../platform/http/respond";

export const origin = "http://localhost:3000";

export const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** Calls GET /oauth/authorize with these query parameters. */
export const authorize = (params: Record<string, string>) =>
  authorizeGet(new Request(`${origin}/oauth/authorize?${new URLSearchParams(params)}`));

/** POSTs a form to /oauth/token. */
export const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  tokenPost(
    new Request(`${origin}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  );

/** POSTs a form to /oauth/revoke. */
export const revoke = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  revokePost(
    new Request(`${origin}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  );

/** The consent form as the page renders it for `personId`, submitted with `decision` and ticked opt-in scopes. */
export const submitConsent = (options: {
  personId: string;
  params: Record<string, string>;
  decision?: "approve" | "deny";
  tick?: string[];
  token?: string;
  now?: Date;
}) => {
  const { parameters } = readAuthorizeParameters(new URLSearchParams(options.params));
  const form = new URLSearchParams(options.params);
  form.set(
    "consent_token",
    options.token ?? createConsentToken(options.personId, parameters, options.now ?? new Date()),
  );
  form.set("decision", options.decision ?? "approve");
  for (const scope of options.tick ?? []) form.append("grant_scope", scope);
  return handleConsentDecision(
    new Request(`${origin}/oauth/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    }),
    {
      personId: options.personId,
      now: options.now ?? new Date(),
    },
  );
};

/** The standard authorize parameters for a client (override any). */
export const authorizeParams = (
  clientId: string,
  redirectUri: string,
  challenge: string,
  overrides: Record<string, string> = {},
) => ({
  response_type: "code",
  client_id: clientId,
  redirect_uri: redirectUri,
  scope: "profile:read address:read",
  state: "st-123",
  code_challenge: challenge,
  code_challenge_method: "S256",
  ...overrides,
});

/** Runs consent and returns the code from the redirect (throws when there is none). */
export const obtainCode = async (options: {
  personId: string;
  clientId: string;
  redirectUri: string;
  scope?: string;
  tick?: string[];
}) => {
  const pkce = pkcePair();
  const params = authorizeParams(
    options.clientId,
    options.redirectUri,
    pkce.challenge,
    options.scope ? { scope: options.scope } : {},
  );
  const response = await submitConsent({ personId: options.personId, params, tick: options.tick });
  const location = response.headers.get("location");
  const code = location && new URL(location).searchParams.get("code");
  if (!code)
    throw new Error(
      `no code: ${response.status} ${location ?? (await response.text()).slice(0, 300)}`,
    );
  return { code, verifier: pkce.verifier, location: new URL(location!) };
};

/** Calls a REST route handler with a bearer token. */
export const callApi = (
  route: (request: Request) => Promise<Response>,
  accessToken: string,
  path = "/api/v1/me",
) =>
  route(new Request(`${origin}${path}`, { headers: { authorization: `Bearer ${accessToken}` } }));

/** A confirmed person linked to a new partner app: the tokens of the code exchange, and a refresh helper. */
export const linkedPerson = async (scope = "profile:read address:read") => {
  const { person } = await createPerson();
  const { client, secret } = await createLinkingPartner();
  const redirectUri = client.redirectUris[0];
  const { code, verifier } = await obtainCode({
    personId: person.id,
    clientId: client.id,
    redirectUri,
    scope,
  });
  const auth = { authorization: basic(client.id, secret) };
  const tokens = await (
    await token(
      {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
      },
      auth,
    )
  ).json();
  const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
    token({ grant_type: "refresh_token", refresh_token: refreshToken, ...extra }, auth);
  return {
    person,
    client,
    secret,
    auth,
    tokens: tokens as { access_token: string; refresh_token: string; scope: string },
    refresh,
  };
};

/** The AppError a procedure call failed with (its code and fields). */
export const failureOf = async (call: Promise<unknown>) =>
  toAppError(
    await call.then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
