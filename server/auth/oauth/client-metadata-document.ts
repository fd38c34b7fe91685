/**
 * Client ID Metadata Documents: a client whose client_id is an https URL publishes its name and
 * redirect URIs there (the authorization server metadata says client_id_metadata_document_supported).
 * At /oauth/authorize the document is fetched (client-metadata-fetch.ts), checked like a dynamic
 * registration (same redirect URI rule), kept for 5 minutes, and mirrored as a public agent
 * client whose id is the URL, so consent, codes, grants and tokens treat it like any other client.
 * Such clients never hold purchase:write: that stays with assistants registered at the agent door.
 */
import { z } from "zod";
import type { Db } from "../../db";
import { zodFields } from "../../http/zod-fields";
import { currentEnvironment } from "../environment";
import { redirectUriProblem } from "../redirect-uris";
import { agentOnlyScopes, allScopes } from "../scopes";
import { fetchMetadataDocument, MetadataFetchError } from "./client-metadata-fetch";

const cacheMs = 5 * 60_000;
const maxCached = 1000;
const cache = new Map<string, { until: number; document: MetadataDocument }>();

const ZMetadataDocument = z.object({
  client_id: z.string(),
  client_name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  redirect_uris: z.array(z.string()).min(1, "at least one redirect URI is required").max(10, "at most 10 redirect URIs"),
  token_endpoint_auth_method: z.literal("none", { error: 'must be "none": PKCE public clients only' }).default("none"),
  grant_types: z.array(z.enum(["authorization_code", "refresh_token"], { error: "only authorization_code and refresh_token" })).optional(),
  response_types: z.array(z.literal("code", { error: 'only "code"' })).optional(),
  client_uri: z.string().max(2000).optional(),
  logo_uri: z.string().max(2000).optional(),
});
type MetadataDocument = z.output<typeof ZMetadataDocument>;

/** The scopes a metadata-document client may ask for. */
const metadataClientScopes = allScopes.filter((scope) => !agentOnlyScopes.includes(scope));

/** Whether a client_id is a metadata document URL: https with a path (not a registered id). */
export const isMetadataDocumentClientId = (clientId: string) => {
  if (!clientId.startsWith("https://")) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== "/" && !url.hash && !url.username && !url.password && clientId.length <= 2000;
  } catch {
    return false;
  }
};

const problemOf = (document: MetadataDocument, clientId: string) => {
  if (document.client_id !== clientId) return "its client_id is not the address it was fetched from";
  for (const uri of document.redirect_uris) {
    const problem = redirectUriProblem(uri, currentEnvironment());
    if (problem) return `redirect URI ${uri} ${problem}`;
  }
  return undefined;
};

const loadDocument = async (clientId: string): Promise<MetadataDocument> => {
  const cached = cache.get(clientId);
  if (cached && cached.until > Date.now()) return cached.document;
  const raw = await fetchMetadataDocument(new URL(clientId));
  const parsed = ZMetadataDocument.safeParse(raw);
  if (!parsed.success) {
    const [field, reason] = Object.entries(zodFields(parsed.error))[0];
    throw new MetadataFetchError(`has ${field} that ${reason}`);
  }
  const problem = problemOf(parsed.data, clientId);
  if (problem) throw new MetadataFetchError(problem);
  if (cache.size >= maxCached) cache.delete(cache.keys().next().value!);
  cache.set(clientId, { until: Date.now() + cacheMs, document: parsed.data });
  return parsed.data;
};

/**
 * Fetches (or reads from the cache) the document behind `clientId` and mirrors it as a client row.
 * Returns a sentence saying why it cannot be used, or undefined when the client is ready. A client
 * the operator revoked stays revoked.
 */
export const syncMetadataDocumentClient = async (db: Db, clientId: string): Promise<string | undefined> => {
  let document: MetadataDocument;
  try {
    document = await loadDocument(clientId);
  } catch (error) {
    if (error instanceof MetadataFetchError) return `The app's client metadata document (${new URL(clientId).host}) ${error.message}.`;
    return `The app's client metadata document (${new URL(clientId).host}) could not be fetched.`;
  }
  const fields = {
    name: document.client_name,
    redirectUris: [...new Set(document.redirect_uris)],
    metadata: { client_id_metadata_document: true, ...(document.client_uri ? { client_uri: document.client_uri } : {}), ...(document.logo_uri ? { logo_uri: document.logo_uri } : {}) },
  };
  await db.apiClient.upsert({
    where: { id: clientId },
    create: { id: clientId, kind: "agent", secretHash: null, scopes: metadataClientScopes, linkingEnabled: true, environment: currentEnvironment(), ...fields },
    update: fields,
  });
  return undefined;
};
