/** What the edges and the dashboard may use of the OAuth server. */
export { consentPath, handleAuthorizeGet } from "./authorize-endpoint";
export type { AuthorizeParameters } from "./authorize-request";
export {
  createConsentToken,
  grantedOptInScopes,
  handleConsentDecision,
  loadConsentRequest,
  newlyRequestedScopes,
} from "./consent";
export { disconnectApp, listConnectedApps } from "./grants";
export { authorizationServerMetadata } from "./metadata";
export { handleAgentRegistration } from "./register-agent";
export { oauthError } from "./responses";
export { revokeClient } from "./revoke-client";
export { handleRevokeRequest } from "./revoke-endpoint";
export { insertRegistrationToken } from "./store";
export { handleTokenRequest } from "./token-endpoint";
