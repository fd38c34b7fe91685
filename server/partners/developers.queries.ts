/** Reads of the developer portal, always scoped to the signed-in owner (another person's application is not found). */
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";

export const applicationSelect = {
  id: true,
  name: true,
  contactEmail: true,
  redirectUris: true,
  wantsLinking: true,
  environment: true,
  status: true,
  createdAt: true,
  decidedAt: true,
  client: {
    select: {
      id: true,
      scopes: true,
      redirectUris: true,
      secretHash: true,
      revokedAt: true,
      linkingEnabled: true,
    },
  },
} as const;

/** The person's own application, or 404. */
export const ownApplication = async (db: Db, personId: string, applicationId: string) => {
  const application = await db.clientApplication.findFirst({
    where: { id: applicationId, personId },
    select: applicationSelect,
  });
  if (!application)
    throw new AppError("not_found", { message: "No such application on your account." });
  return application;
};

type Application = Awaited<ReturnType<typeof ownApplication>>;

/** Database row → what the portal shows (never a secret or its hash). */
export const toApplicationView = (application: Application) => ({
  application_id: application.id,
  name: application.name,
  contact_email: application.contactEmail,
  environment: application.environment,
  status: application.client?.revokedAt ? ("revoked" as const) : application.status,
  created_at: application.createdAt,
  wants_linking: application.wantsLinking,
  redirect_uris: application.client?.redirectUris ?? application.redirectUris,
  client: application.client
    ? {
        client_id: application.client.id,
        scopes: application.client.scopes,
        has_secret: application.client.secretHash !== null,
        linking_enabled: application.client.linkingEnabled,
      }
    : null,
});
