/** What other capabilities and the edges may use of auth: everything else in the folder is its own. */
export {
  approveApplication,
  rejectApplication,
  replaceRedirectUris,
  rotateClientSecret,
} from "./applications";
export { admit, authLimits, limitLinkUse, recordFailure, refuseIfSpent } from "./auth-limits";
export { sameOriginPath } from "./callback-url";
export {
  enqueueAccountExistsEmail,
  enqueuePasswordResetEmail,
  enqueueVerificationEmail,
  isResetLinkFresh,
  readPasswordResetToken,
  readVerificationToken,
} from "./email-links";
export { credentialTag, currentEnvironment } from "./environment";
export type { ServiceEnvironment } from "./environment";
export { authOptions } from "./next-auth";
export { hashPassword } from "./passwords";
export { isLoopback, redirectHost, redirectUriProblem } from "./redirect-uris";
export { mcpAccountPath } from "./resources";
export { allScopes, optInScopes } from "./scopes";
export type { Scope } from "./scopes";
export { currentPersonId, personIdFromRequest } from "./session";
export { signInPath } from "./sign-in-link";
export { authenticateBearer, bearerOwnerHint, bearerToken, mcpAccountAudience } from "./tokens";
export { isCurrentEnvironment } from "./environment";
export { audienceForResource, clientAudienceForResource } from "./resources";
export { agentOnlyScopes, clientCredentialsScopes, isScope, parseScopeString } from "./scopes";
export { accessTokenLifetimeSeconds, issueAccessToken, secretMatches } from "./tokens";
export {
  findOwnPortalApplication,
  readPortalApplication,
  insertApplication,
  listApplications,
  listOwnPortalApplications,
} from "./store/applications";
export type { PortalApplication } from "./store/applications";
export {
  findAuthorizeClient,
  findClientContact,
  findClientCredentials,
  findClientPurchaseSwitch,
  findClientRevocation,
  findClientSummaries,
  insertClient,
  listClients,
  revokeClientRow,
  setClientPurchases,
  upsertMirroredClient,
} from "./store/clients";
export { revokeAccessToken, revokeTokensOfClient, storeAccessToken } from "./store/tokens";
