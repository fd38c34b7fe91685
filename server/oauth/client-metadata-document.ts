/**
 * Client ID Metadata Documents: a client whose client_id is an https URL publishes its name and
 * redirect URIs there (the authorization server metadata says client_id_metadata_document_supported).
 * At /oauth/authorize the document is fetched (client-metadata-fetch.ts), checked like a dynamic
 * registration (same redirect URI rule), kept for 5 minutes (a failure for 60 seconds), and, once a
 * person approves the app, mirrored as a public agent client whose id is the URL, so codes, grants
 * and tokens treat it like any other client. Fetching is bounded (issue 24, H2): per client address
 * at /oauth/authorize (auth-limits.ts), at most `maxConcurrentFetches` at once, DNS inside the
 * 3-second deadline; unused mirrored rows are purged (server/platform/jobs/purge.ts).
 * Such clients never hold purchase:write: that stays with assistants registered at the agent door.
 */
import { z } from "zod";
import type { Db, Tx } from "../platform/db";
import { zodFields } from "../core/zod-fields";
import { currentEnvironment, upsertMirroredClient } from "../auth";
import { redirectUriProblem } from "../auth";
import { agentOnlyScopes, allScopes } from "../auth";
import { fetchMetadataDocument, MetadataFetchError } from "./client-metadata-fetch";

const cacheMs = 5 * 60_000;
const maxCached = 1000;
const cache = new Map<string, { until: number; document: MetadataDocument }>();

const ZMetadataDocument = z.object({
  client_id: z.string(),
  client_name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  redirect_uris: z
    .array(z.string())
    .min(1, "at least one redirect URI is required")
    .max(10, "at most 10 redirect URIs"),
  token_endpoint_auth_method: z
    .literal("none", { error: 'must be "none": PKCE public clients only' })
    .default("none"),
  grant_types: z
    .array(
      z.enum(["authorization_code", "refresh_token"], {
        error: "only authorization_code and refresh_token",
      }),
    )
    .optional(),
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
    return (
      url.pathname !== "/" && !url.hash && !url.username && !url.password && clientId.length <= 2000
    );
  } catch {
    return false;
  }
};

const problemOf = (document: MetadataDocument, clientId: string) => {
  if (document.client_id !== clientId)
    return "its client_id is not the address it was fetched from";
  for (const uri of document.redirect_uris) {
    const problem = redirectUriProblem(uri, currentEnvironment());
    if (problem) return `redirect URI ${uri} ${problem}`;
  }
  return undefined;
};

/** Failures are remembered briefly: asking again for a broken or slow document costs no new fetch. */
const failureCacheMs = 60_000;
const failures = new Map<string, { until: number; message: string }>();
/** Fetches running at once in this process, at most; past it a request is told to retry (nothing queues). */
export const maxConcurrentFetches = 8;
let running = 0;
/** A fetch in flight per URL: concurrent requests for one document share it. */
const inFlight = new Map<string, Promise<MetadataDocument>>();

/** Too many documents are being fetched right now: retry shortly (not remembered as the document's failure). */
class MetadataFetchBusyError extends Error {}

const remember = <V>(map: Map<string, V>, key: string, value: V) => {
  map.delete(key);
  if (map.size >= maxCached) map.delete(map.keys().next().value!);
  map.set(key, value);
};

/** Forgets every remembered document and failure (tests). */
export const forgetMetadataDocuments = () => {
  cache.clear();
  failures.clear();
};

const fetchDocument = async (clientId: string): Promise<MetadataDocument> => {
  const raw = await fetchMetadataDocument(new URL(clientId));
  const parsed = ZMetadataDocument.safeParse(raw);
  if (!parsed.success) {
    const [field, reason] = Object.entries(zodFields(parsed.error))[0];
    throw new MetadataFetchError(`has ${field} that ${reason}`);
  }
  const problem = problemOf(parsed.data, clientId);
  if (problem) throw new MetadataFetchError(problem);
  return parsed.data;
};

/**
 * The document behind `clientId`: remembered 5 minutes, a failure 60 seconds. `beforeFetch` runs
 * only when a fetch is really needed (the caller's per-address limit: auth-limits.ts), and at most
 * `maxConcurrentFetches` run at once.
 */
const loadDocument = async (
  clientId: string,
  beforeFetch: () => Promise<void>,
): Promise<MetadataDocument> => {
  const now = Date.now();
  const cached = cache.get(clientId);
  if (cached && cached.until > now) return cached.document;
  const failed = failures.get(clientId);
  if (failed && failed.until > now) throw new MetadataFetchError(failed.message);
  const shared = inFlight.get(clientId);
  if (shared) return shared;
  await beforeFetch();
  const joined = inFlight.get(clientId); // one started while the limit was counted
  if (joined) return joined;
  if (running >= maxConcurrentFetches)
    throw new MetadataFetchBusyError("too many client metadata documents are being fetched");
  running++;
  const work = fetchDocument(clientId).then(
    (document) => {
      remember(cache, clientId, { until: Date.now() + cacheMs, document });
      return document;
    },
    (error: unknown) => {
      const message = error instanceof MetadataFetchError ? error.message : "could not be fetched";
      remember(failures, clientId, { until: Date.now() + failureCacheMs, message });
      throw new MetadataFetchError(message);
    },
  );
  inFlight.set(clientId, work);
  try {
    return await work;
  } finally {
    running--;
    inFlight.delete(clientId);
  }
};

/** What the client row mirrors of a document; written only when a person approves (`mirrorMetadataDocumentClient`). */
export type MetadataDocumentClient = {
  id: string;
  name: string;
  kind: "agent";
  scopes: string[];
  redirectUris: string[];
  metadata: { client_id_metadata_document: true; client_uri?: string; logo_uri?: string };
};

export type MetadataDocumentResolution =
  | { kind: "client"; client: MetadataDocumentClient }
  | { kind: "problem"; message: string }
  /** Too many fetches at once in this process: answer 503 with Retry-After. */
  | { kind: "busy"; message: string };

/**
 * Fetches (or reads from the cache) the document behind `clientId` and returns the client it
 * describes, without writing anything: a client row appears only when a person approves the app
 * (so a stream of distinct URLs leaves no rows), and the purge removes mirrored rows no grant uses.
 */
export const resolveMetadataDocumentClient = async (
  clientId: string,
  options: { beforeFetch?: () => Promise<void> } = {},
): Promise<MetadataDocumentResolution> => {
  const host = new URL(clientId).host;
  let document: MetadataDocument;
  try {
    document = await loadDocument(clientId, options.beforeFetch ?? (async () => undefined));
  } catch (error) {
    if (error instanceof MetadataFetchBusyError)
      return {
        kind: "busy",
        message: `We are checking many apps just now and could not check this one (${host}). Please try again in a moment.`,
      };
    if (error instanceof MetadataFetchError)
      return {
        kind: "problem",
        message: `The app's client metadata document (${host}) ${error.message}.`,
      };
    throw error;
  }
  return {
    kind: "client",
    client: {
      id: clientId,
      name: document.client_name,
      kind: "agent",
      scopes: metadataClientScopes,
      redirectUris: [...new Set(document.redirect_uris)],
      metadata: {
        client_id_metadata_document: true,
        ...(document.client_uri ? { client_uri: document.client_uri } : {}),
        ...(document.logo_uri ? { logo_uri: document.logo_uri } : {}),
      },
    },
  };
};

/**
 * Mirrors an approved metadata-document client as a public agent client row (in the consent's
 * transaction, before its grant), so codes, grants and tokens treat it like any other client. A
 * client the operator revoked stays revoked.
 */
export const mirrorMetadataDocumentClient = async (tx: Db | Tx, client: MetadataDocumentClient) => {
  await upsertMirroredClient(tx, {
    id: client.id,
    name: client.name,
    scopes: client.scopes,
    redirectUris: client.redirectUris,
    metadata: client.metadata,
    environment: currentEnvironment(),
  });
};
