/** The portal's view of an application, always scoped to the signed-in owner (another person's application is not found). */
import { findOwnPortalApplication, type PortalApplication } from "../auth";
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";

/** The person's own application, or 404. */
export const ownApplication = async (db: Db, personId: string, applicationId: string) => {
  const application = await findOwnPortalApplication(db, personId, applicationId);
  if (!application)
    throw new AppError("not_found", { message: "No such application on your account." });
  return application;
};

/** Database row → what the portal shows (never a secret or its hash). */
export const toApplicationView = (application: PortalApplication) => ({
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
