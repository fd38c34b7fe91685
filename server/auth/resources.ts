/**
 * Resource indicators (RFC 8707): each protected resource has an identifier (its URL) and the
 * audience string stored on tokens issued for it. Resource servers accept only their own audience
 * (authenticateBearer takes it), so a token for the REST API is refused by the account connector
 * and the reverse. Without a `resource` parameter a token is for the REST API (DESIGN.md).
 */
import { env } from "../platform/env";
import { mcpAccountAudience, restAudience } from "./tokens";

/** The account connector's path; its identifier is PUBLIC_URL + this path. */
export const mcpAccountPath = "/mcp/account";

/**
 * `forPersonOnly`: the resource acts for a signed-in person (the account connector's tools read and
 * act on an account), so only a grant the person approved may name it; client_credentials has no
 * person and is refused it (invalid_target) rather than given a token the resource would refuse.
 */
const resources = () => [
  { identifier: `${env().PUBLIC_URL}/api/v1`, audience: restAudience, forPersonOnly: false },
  {
    identifier: `${env().PUBLIC_URL}${mcpAccountPath}`,
    audience: mcpAccountAudience,
    forPersonOnly: true,
  },
];

/** The audience for a `resource` parameter: the REST API when absent, undefined when unknown. */
export const audienceForResource = (resource: string | undefined): string | undefined => {
  if (resource === undefined) return restAudience;
  return resources().find((candidate) => candidate.identifier === resource)?.audience;
};

/**
 * The audience of a client-credentials token (no person) for a `resource` parameter: the REST API
 * when absent or named; undefined for a resource that serves only a person, or is unknown.
 */
export const clientAudienceForResource = (resource: string | undefined): string | undefined => {
  if (resource === undefined) return restAudience;
  const found = resources().find((candidate) => candidate.identifier === resource);
  return found && !found.forPersonOnly ? found.audience : undefined;
};
