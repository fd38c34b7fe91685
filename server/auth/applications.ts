/**
 * Partner applications from the developer portal. Approval (the operator's `client:approve`, or at
 * once in sandbox) creates the client without a secret: the owner generates it on the portal and
 * sees it exactly once (it is stored as SHA-256 only). Partners get the catalogue and checkout
 * scopes, plus the account-linking scopes when they asked for linking; never purchase:write,
 * which only assistants registered at /oauth/register/agent can be offered.
 */
import { type Db, inTransaction, type Tx } from "../platform/db";
import { credentialTag, type ServiceEnvironment } from "./environment";
import { randomId, randomSecret, sha256 } from "../core/ids";
import type { Scope } from "./scopes";
import {
  decidePendingApplication,
  linkApplicationClient,
  readApplication,
  setApplicationRedirectUris,
} from "./store/applications";
import {
  insertClient,
  readClientEnvironment,
  setClientRedirectUris,
  setClientSecretHash,
} from "./store/clients";
import { revokeClientCredentialsTokens } from "./store/tokens";

const partnerScopes: readonly Scope[] = ["catalog:read", "checkout:write"];
const partnerLinkingScopes: readonly Scope[] = [
  "profile:read",
  "orders:read",
  "address:read",
  "alerts:write",
];

/** Approves a pending application and creates its client; undefined when it is not pending. */
export const approveApplication = (db: Db | Tx, applicationId: string, now: Date) =>
  inTransaction(db, async (tx) => {
    if (!(await decidePendingApplication(tx, { applicationId, status: "approved", now })))
      return undefined;
    const application = await readApplication(tx, applicationId);
    const client = await insertClient(tx, {
      id: randomId(`cli_${credentialTag(application.environment as ServiceEnvironment)}`),
      name: application.name,
      kind: "partner",
      secretHash: null,
      scopes: [...partnerScopes, ...(application.wantsLinking ? partnerLinkingScopes : [])],
      redirectUris: application.redirectUris,
      linkingEnabled: application.wantsLinking,
      contactEmail: application.contactEmail,
      ownerId: application.personId,
      environment: application.environment,
      createdAt: now,
    });
    await linkApplicationClient(tx, applicationId, client.id);
    return client;
  });

/** Rejects a pending application; false when it is not pending. */
export const rejectApplication = (db: Db | Tx, applicationId: string, now: Date) =>
  decidePendingApplication(db, { applicationId, status: "rejected", now });

/**
 * Generates a new secret for a client: the old secret stops at once, and so do the tokens it
 * obtained by client credentials (linked tokens stay: they are the people's grants, and refreshing
 * them needs the new secret anyway). Returns the secret, which is never stored in clear.
 */
export const rotateClientSecret = (db: Db | Tx, clientId: string, now: Date) =>
  inTransaction(db, async (tx) => {
    const environment = await readClientEnvironment(tx, clientId);
    const secret = randomSecret(`sec_${credentialTag(environment as ServiceEnvironment)}`);
    await setClientSecretHash(tx, clientId, sha256(secret));
    await revokeClientCredentialsTokens(tx, clientId, now);
    return secret;
  });

/** The owner edits the redirect URIs of an approved application: its client's and its own, together. */
export const replaceRedirectUris = (
  db: Db | Tx,
  options: { applicationId: string; clientId: string; redirectUris: string[] },
) =>
  inTransaction(db, async (tx) => {
    await setClientRedirectUris(tx, options.clientId, options.redirectUris);
    await setApplicationRedirectUris(tx, options.applicationId, options.redirectUris);
  });
