/**
 * The challenge a resource server of ours (the REST API, the account connector) answers a refused
 * bearer token with, written once (RFC 6750 §3, RFC 9728 §5.1; RELIABILITY C3):
 * - no token: `resource_metadata` (and the connector's scopes), no `error`;
 * - a token that is invalid, expired, revoked or for another audience: `error="invalid_token"`;
 * - a token without the scope: 403, `error="insufficient_scope"` with the scope it needs, so a client
 *   can ask the person for it (step-up).
 * Each value is a quoted-string (our own words, with any quote or backslash taken out), and a 401
 * is never cached (`Cache-Control: no-store`).
 */
import type { AppError } from "../../core/errors";
import { bearerToken } from "../../auth";

const quoted = (value: string) => `"${value.replace(/["\\\r\n]/g, "")}"`;

const bearer = (params: Record<string, string | undefined>) =>
  `Bearer ${Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${quoted(value)}`)
    .join(", ")}`;

/**
 * The headers a 401 or a 403 insufficient_scope carries at a resource whose metadata is at
 * `metadataUrl` (none for any other error). `scopes`: what a caller with no token should ask for.
 */
export const challengeHeaders = (
  error: AppError,
  request: Request,
  resource: { metadataUrl: string; realm?: string; scopes?: readonly string[] },
): Record<string, string> => {
  const common = { realm: resource.realm, resource_metadata: resource.metadataUrl };
  if (error.code === "unauthorized") {
    const hasToken = Boolean(bearerToken(request.headers.get("authorization")));
    const challenge = hasToken
      ? bearer({
          ...common,
          error: "invalid_token",
          error_description: "The access token is invalid, expired or revoked",
        })
      : bearer({ ...common, scope: resource.scopes?.join(" ") });
    return { "WWW-Authenticate": challenge, "Cache-Control": "no-store" };
  }
  if (error.code === "insufficient_scope") {
    const scope = (error.options.details as { scope?: string } | undefined)?.scope;
    return {
      "WWW-Authenticate": bearer({
        ...common,
        error: "insufficient_scope",
        scope,
        error_description: error.message,
      }),
    };
  }
  return {};
};
