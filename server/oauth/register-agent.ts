/**
 * POST /oauth/register/agent: dynamic client registration (RFC 7591) for assistants that may be
 * offered purchase:write. Registered agents are public clients (token_endpoint_auth_method
 * "none", PKCE only). Open in sandbox; in production it needs an initial access token from
 * `npm run ops -- agent:registration-token`. URLs in the metadata (logo_uri, client_uri, ...)
 * are stored and shown as text, never fetched, so registration cannot make this server call
 * anything (no SSRF). Unsupported metadata (jwks_uri, software_statement, ...) is ignored.
 */
import { z } from "zod";
import { systemClock } from "../platform/clock";
import { db, isDatabaseUnavailable } from "../platform/db";
import { clientIp } from "../platform/http/client-ip";
import { zodFields } from "../core/zod-fields";
import { admit, authLimits } from "../auth";
import { bearerToken } from "../auth";
import { randomId } from "../core/ids";
import { credentialTag, currentEnvironment, insertClient } from "../auth";
import { spendRegistrationToken } from "./store";
import { redirectUriProblem } from "../auth";
import { allScopes, isScope } from "../auth";
import { oauthError, oauthJson, oauthLimited, oauthUnavailable, readOAuthBody } from "./responses";
import { findUnstorableInput } from "../core/storable-text";

const maxBodyBytes = 16_384;
const registeredGrants = ["authorization_code", "refresh_token"];

const httpsUrl = z
  .string()
  .max(2000)
  .refine((value) => {
    try {
      return new URL(value).protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an https URL");

const ZRegistration = z.object({
  redirect_uris: z
    .array(z.string())
    .min(1, "at least one redirect URI is required")
    .max(10, "at most 10 redirect URIs"),
  client_name: z
    .string()
    .trim()
    .min(1, "is required")
    .max(100, "must be at most 100 characters")
    .refine(
      (value) => ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
      "must not contain control characters",
    ),
  token_endpoint_auth_method: z
    .literal("none", {
      error: 'must be "none": assistants registered here are public clients using PKCE',
    })
    .default("none"),
  grant_types: z
    .array(z.string())
    .default(["authorization_code"])
    .refine(
      (grants) => grants.every((grant) => registeredGrants.includes(grant)),
      "only authorization_code and refresh_token",
    )
    .refine((grants) => grants.includes("authorization_code"), "must include authorization_code"),
  response_types: z.array(z.literal("code", { error: 'only "code"' })).default(["code"]),
  scope: z
    .string()
    .max(500)
    .optional()
    .refine(
      (value) => !value || value.split(" ").filter(Boolean).every(isScope),
      `must be scopes among: ${allScopes.join(" ")}`,
    ),
  client_uri: httpsUrl.optional(),
  logo_uri: httpsUrl.optional(),
  policy_uri: httpsUrl.optional(),
  tos_uri: httpsUrl.optional(),
  contacts: z.array(z.email().max(254)).max(5).optional(),
  software_id: z.string().max(100).optional(),
  software_version: z.string().max(50).optional(),
});

const problemOf = (error: z.ZodError) => {
  const fields = zodFields(error);
  const [field, reason] = Object.entries(fields)[0];
  return oauthError(
    field.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata",
    `${field} ${reason}`,
  );
};

/** Spends one use of a production initial access token; false when missing, unknown, spent or expired. */
const spendInitialAccessToken = async (header: string | null, now: Date) => {
  const token = bearerToken(header);
  if (!token) return false;
  return spendRegistrationToken(db(), token, now);
};

export const handleAgentRegistration = async (request: Request): Promise<Response> => {
  const limited = await oauthLimited(() =>
    admit(authLimits.registerPerIp, clientIp(request.headers)),
  );
  if (limited) return limited;
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    return oauthError("invalid_client_metadata", "Send the client metadata as application/json.");
  }
  const text = await readOAuthBody(request, maxBodyBytes, "invalid_client_metadata");
  if (text instanceof Response) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return oauthError("invalid_client_metadata", "The body is not valid JSON.");
  }
  const unstorable = findUnstorableInput(body);
  if (unstorable)
    return oauthError("invalid_client_metadata", `${unstorable.field} ${unstorable.reason}.`);
  const parsed = ZRegistration.safeParse(body);
  if (!parsed.success) return problemOf(parsed.error);
  const metadata = parsed.data;
  const environment = currentEnvironment();
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri, environment);
    if (problem) return oauthError("invalid_redirect_uri", `${uri} ${problem}.`);
  }
  try {
    const now = systemClock.now();
    if (
      environment === "production" &&
      !(await spendInitialAccessToken(request.headers.get("authorization"), now))
    ) {
      return oauthError(
        "invalid_token",
        "Registration needs a valid initial access token (Authorization: Bearer).",
        401,
        { "WWW-Authenticate": 'Bearer error="invalid_token"' },
      );
    }
    const scopes = metadata.scope
      ? [...new Set(metadata.scope.split(" ").filter(Boolean))]
      : [...allScopes];
    const stored = {
      client_uri: metadata.client_uri,
      logo_uri: metadata.logo_uri,
      policy_uri: metadata.policy_uri,
      tos_uri: metadata.tos_uri,
      contacts: metadata.contacts,
      software_id: metadata.software_id,
      software_version: metadata.software_version,
    };
    const client = await insertClient(db(), {
      id: randomId(`cli_${credentialTag(environment)}`),
      name: metadata.client_name,
      kind: "agent",
      secretHash: null,
      scopes,
      redirectUris: [...new Set(metadata.redirect_uris)],
      linkingEnabled: true,
      environment,
      metadata: JSON.parse(JSON.stringify(stored)),
      createdAt: now,
    });
    return oauthJson(
      {
        client_id: client.id,
        client_id_issued_at: Math.floor(now.getTime() / 1000),
        client_name: client.name,
        redirect_uris: client.redirectUris,
        grant_types: registeredGrants,
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: scopes.join(" "),
        ...JSON.parse(JSON.stringify(stored)),
      },
      201,
    );
  } catch (error) {
    if (isDatabaseUnavailable(error)) return oauthUnavailable();
    throw error;
  }
};
