/**
 * The queries of `client_applications`: a partner's request for credentials from the developer
 * portal, and the client its approval created. Prisma: written by people and operators, read by
 * the portal's pages.
 */
import type { Db, Tx } from "../../platform/db";

type Client = Db | Tx;

/** What the portal shows of an application and of its client (the secret's hash only to say whether one exists). */
const portalApplicationSelect = {
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

export type PortalApplication = Awaited<ReturnType<typeof readPortalApplication>>;

/** An application with its client, as the portal shows it; throws when unknown. */
export const readPortalApplication = (db: Client, applicationId: string) =>
  db.clientApplication.findUniqueOrThrow({
    where: { id: applicationId },
    select: portalApplicationSelect,
  });

/** The person's own application with its client; null when unknown or another person's. */
export const findOwnPortalApplication = (db: Client, personId: string, applicationId: string) =>
  db.clientApplication.findFirst({
    where: { id: applicationId, personId },
    select: portalApplicationSelect,
  });

/** The person's applications with their clients, newest first. */
export const listOwnPortalApplications = (db: Client, personId: string) =>
  db.clientApplication.findMany({
    where: { personId },
    select: portalApplicationSelect,
    orderBy: { createdAt: "desc" },
  });

export const insertApplication = (
  db: Client,
  application: {
    id: string;
    personId: string;
    name: string;
    contactEmail: string;
    redirectUris: string[];
    wantsLinking: boolean;
    environment: "sandbox" | "production";
  },
) => db.clientApplication.create({ data: application });

/** Decides a pending application; false when it is not pending (decided already, or unknown). */
export const decidePendingApplication = async (
  db: Client,
  options: { applicationId: string; status: "approved" | "rejected"; now: Date },
) =>
  (
    await db.clientApplication.updateMany({
      where: { id: options.applicationId, status: "pending" },
      data: { status: options.status, decidedAt: options.now },
    })
  ).count === 1;

/** An application as stored; throws when unknown. */
export const readApplication = (db: Client, applicationId: string) =>
  db.clientApplication.findUniqueOrThrow({ where: { id: applicationId } });

export const linkApplicationClient = (db: Client, applicationId: string, clientId: string) =>
  db.clientApplication.update({ where: { id: applicationId }, data: { clientId } });

export const setApplicationRedirectUris = (
  db: Client,
  applicationId: string,
  redirectUris: string[],
) => db.clientApplication.update({ where: { id: applicationId }, data: { redirectUris } });

/** Every application (or every one of a status), oldest first; the owner is a person id (accounts has their email). */
export const listApplications = (db: Client, status?: "pending" | "approved" | "rejected") =>
  db.clientApplication.findMany({
    where: status ? { status } : {},
    orderBy: { createdAt: "asc" },
  });
