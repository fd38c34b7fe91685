/**
 * Partner applications from the developer portal. Approval (the operator's `client:approve`, or at
 * once in sandbox) creates the client without a secret: the owner generates it on the portal and
 * sees it exactly once (it is stored as SHA-256 only). Partners get the catalogue and checkout
 * scopes, plus the account-linking scopes when they asked for linking; never purchase:write,
 * which only assistants registered at /oauth/register/agent can be offered.
 */
import type { Db } from "../platform/db";
import { credentialTag, type ServiceEnvironment } from "./environment";
import { randomId, randomSecret, sha256 } from "../core/ids";
import type { Scope } from "./scopes";

export const partnerScopes: readonly Scope[] = ["catalog:read", "checkout:write"];
export const partnerLinkingScopes: readonly Scope[] = [
  "profile:read",
  "orders:read",
  "address:read",
  "alerts:write",
];

/** Approves a pending application and creates its client; undefined when it is not pending. */
export const approveApplication = (db: Db, applicationId: string, now: Date) =>
  db.$transaction(async (tx) => {
    const { count } = await tx.clientApplication.updateMany({
      where: { id: applicationId, status: "pending" },
      data: { status: "approved", decidedAt: now },
    });
    if (count === 0) return undefined;
    const application = await tx.clientApplication.findUniqueOrThrow({
      where: { id: applicationId },
    });
    const client = await tx.apiClient.create({
      data: {
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
      },
    });
    await tx.clientApplication.update({
      where: { id: applicationId },
      data: { clientId: client.id },
    });
    return client;
  });

/** Rejects a pending application; false when it is not pending. */
export const rejectApplication = async (db: Db, applicationId: string, now: Date) =>
  (
    await db.clientApplication.updateMany({
      where: { id: applicationId, status: "pending" },
      data: { status: "rejected", decidedAt: now },
    })
  ).count === 1;

/**
 * Generates a new secret for a client: the old secret stops at once, and so do the tokens it
 * obtained by client credentials (linked tokens stay: they are the people's grants, and refreshing
 * them needs the new secret anyway). Returns the secret, which is never stored in clear.
 */
export const rotateClientSecret = (db: Db, clientId: string, now: Date) =>
  db.$transaction(async (tx) => {
    const secret = randomSecret(
      `sec_${credentialTag((await tx.apiClient.findUniqueOrThrow({ where: { id: clientId }, select: { environment: true } })).environment as ServiceEnvironment)}`,
    );
    await tx.apiClient.update({ where: { id: clientId }, data: { secretHash: sha256(secret) } });
    await tx.accessToken.updateMany({
      where: { clientId, personId: null, revokedAt: null },
      data: { revokedAt: now },
    });
    return secret;
  });
