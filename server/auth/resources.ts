/**
 * Resource indicators (RFC 8707): each protected resource has an identifier (its URL) and the
 * audience string stored on tokens issued for it. Resource servers accept only their own audience
 * (authenticateBearer takes it). The MCP connectors add theirs here when they land.
 */
import { env } from "../env";
import { restAudience } from "./tokens";

export const resources = () => [{ identifier: `${env().PUBLIC_URL}/api/v1`, audience: restAudience }];

/** The audience for a `resource` parameter: the REST API when absent, undefined when unknown. */
export const audienceForResource = (resource: string | undefined): string | undefined => {
  if (resource === undefined) return restAudience;
  return resources().find((candidate) => candidate.identifier === resource)?.audience;
};
