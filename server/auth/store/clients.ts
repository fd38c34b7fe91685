/**
 * The queries of `api_clients`: partners, registered assistants and metadata-document clients.
 * Prisma: a client is read once per token request or authorization, and written by people and
 * operators (the token endpoint's figures: docs/performance.md#token).
 */
import type { Db, Tx } from "../../platform/db";
import type { Prisma } from "../../generated/prisma/client";

type Client = Db | Tx;

/** What the token and revocation endpoints need to authenticate a client (its secret's hash included). */
const credentialsSelect = {
  id: true,
  name: true,
  kind: true,
  secretHash: true,
  scopes: true,
  redirectUris: true,
  linkingEnabled: true,
  revokedAt: true,
  environment: true,
} as const;

/** A client with what authenticating it needs; null when unknown. */
export const findClientCredentials = (db: Client, clientId: string) =>
  db.apiClient.findUnique({ where: { id: clientId }, select: credentialsSelect });

/** A client as an authorization request is checked against (no secret); null when unknown. */
export const findAuthorizeClient = (db: Client, clientId: string) =>
  db.apiClient.findUnique({
    where: { id: clientId },
    select: {
      id: true,
      name: true,
      kind: true,
      scopes: true,
      redirectUris: true,
      linkingEnabled: true,
      revokedAt: true,
      environment: true,
    },
  });

/** A new client (partner or agent); only a secret's hash is ever stored. */
export type NewClient = {
  id: string;
  name: string;
  kind?: "partner" | "agent";
  secretHash: string | null;
  scopes: string[];
  redirectUris: string[];
  linkingEnabled: boolean;
  contactEmail?: string | null;
  ownerId?: string | null;
  environment?: "sandbox" | "production";
  metadata?: Prisma.InputJsonValue;
  createdAt?: Date;
};

export const insertClient = (db: Client, client: NewClient) =>
  db.apiClient.create({ data: client });

/**
 * Writes a metadata-document client's row: created as a public agent client, or its name,
 * redirect URIs and metadata refreshed. A revoked one stays revoked.
 */
export const upsertMirroredClient = (
  db: Client,
  client: {
    id: string;
    name: string;
    scopes: string[];
    redirectUris: string[];
    metadata: Prisma.InputJsonValue;
    environment: "sandbox" | "production";
  },
) => {
  const fields = {
    name: client.name,
    redirectUris: client.redirectUris,
    metadata: client.metadata,
  };
  return db.apiClient.upsert({
    where: { id: client.id },
    create: {
      id: client.id,
      kind: "agent",
      secretHash: null,
      scopes: client.scopes,
      linkingEnabled: true,
      environment: client.environment,
      ...fields,
    },
    update: fields,
  });
};

/** The environment a client belongs to (its credentials carry its tag); throws when unknown. */
export const readClientEnvironment = async (db: Client, clientId: string) =>
  (await db.apiClient.findUniqueOrThrow({ where: { id: clientId }, select: { environment: true } }))
    .environment;

export const setClientSecretHash = (db: Client, clientId: string, secretHash: string) =>
  db.apiClient.update({ where: { id: clientId }, data: { secretHash } });

export const setClientRedirectUris = (db: Client, clientId: string, redirectUris: string[]) =>
  db.apiClient.update({ where: { id: clientId }, data: { redirectUris } });

/** Switches assistant purchases on or off for one client; throws when there is no such client. */
export const setClientPurchases = (db: Client, clientId: string, purchasesEnabled: boolean) =>
  db.apiClient.update({
    where: { id: clientId },
    data: { purchasesEnabled },
    select: { id: true, kind: true, purchasesEnabled: true },
  });

/** Every client (or every one of a kind), oldest first. */
export const listClients = (db: Client, kind?: "partner" | "agent") =>
  db.apiClient.findMany({ where: kind ? { kind } : {}, orderBy: { createdAt: "asc" } });

/** Revokes a client unless it already is; 1 when it changed, else 0. */
export const revokeClientRow = async (db: Client, clientId: string, now: Date) =>
  (
    await db.apiClient.updateMany({
      where: { id: clientId, revokedAt: null },
      data: { revokedAt: now },
    })
  ).count;

/** When the client was revoked (null: it stands); undefined when there is no such client. */
export const findClientRevocation = async (db: Client, clientId: string) =>
  (await db.apiClient.findUnique({ where: { id: clientId }, select: { revokedAt: true } })) ??
  undefined;

/** An assistant's kind, name and purchase switch (POST /purchases' rule 1); null when unknown. */
export const findClientPurchaseSwitch = (db: Client, clientId: string) =>
  db.apiClient.findUnique({
    where: { id: clientId },
    select: { kind: true, name: true, purchasesEnabled: true },
  });

/** Who to write to about a client: its name, contact address and owner (a person of accounts). */
export const findClientContact = (db: Client, clientId: string) =>
  db.apiClient.findUnique({
    where: { id: clientId },
    select: { name: true, contactEmail: true, ownerId: true },
  });

/** Name and kind of these clients, and whether each is revoked (the connected-apps list). */
export const findClientSummaries = (db: Client, clientIds: string[]) =>
  db.apiClient.findMany({
    where: { id: { in: clientIds } },
    select: { id: true, name: true, kind: true, revokedAt: true },
  });
