/**
 * The authorization server metadata (RFC 8414) at /.well-known/oauth-authorization-server. The
 * issuer is PUBLIC_URL exactly; only what this server does is listed (S256 only; no password or
 * implicit grants).
 */
import { env } from "../platform/env";
import { allScopes } from "../auth";

export const authorizationServerMetadata = () => {
  const issuer = env().PUBLIC_URL;
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register/agent`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...allScopes],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: [
      "client_secret_basic",
      "client_secret_post",
      "none",
    ],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    // A client_id may be an https URL of the client's metadata document (client-metadata-document.ts).
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/docs`,
  };
};
