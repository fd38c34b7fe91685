/**
 * Fetches a Client ID Metadata Document (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-
 * metadata-document) without letting a client make this server call anything it should not: https
 * only, the host resolved once and every address checked (never private, loopback, link-local,
 * multicast or reserved) and the connection pinned to the checked address (no DNS rebinding between
 * check and use), no redirects, 3 seconds in all, 5 KiB at most. CLIENT_METADATA_LOOPBACK=on (sandbox
 * only; `npm start` refuses it in production) admits loopback addresses, so a test can serve the
 * document from this machine; other private ranges stay refused.
 *
 * The 3 seconds include the DNS lookup (issue 24, H2), which never holds a libuv thread: the host
 * is resolved and checked by server/platform/http/outbound-host.ts, the one rule for every host an
 * outsider names (a webhook endpoint's too).
 */
import { request } from "node:https";
import {
  type AddressPolicy,
  pinnedLookup,
  resolveCheckedHost,
  UnreachableHostError,
} from "../platform/http/outbound-host";
import { env } from "../platform/env";

export const metadataFetchTimeoutMs = 3000;
const metadataMaxBytes = 5 * 1024;

export class MetadataFetchError extends Error {}

/** Public addresses only; loopback too under CLIENT_METADATA_LOOPBACK=on (a sandbox's tests). */
const policy = (): AddressPolicy =>
  env().CLIENT_METADATA_LOOPBACK === "on" ? "public-and-loopback" : "public";

const timedOut = () => new MetadataFetchError(`did not answer within ${metadataFetchTimeoutMs} ms`);

/** The one address to connect to (server/platform/http/outbound-host.ts), resolved before `deadline`. */
const resolvePublicAddress = async (hostname: string, deadline: AbortSignal) => {
  try {
    return await resolveCheckedHost(hostname, { policy: policy(), signal: deadline });
  } catch (error) {
    if (!(error instanceof UnreachableHostError)) throw error;
    throw error.reason === "timeout" ? timedOut() : new MetadataFetchError(error.message);
  }
};

/** GETs the document at `url` (already checked to be an https URL) under the rules above; returns its JSON. */
export const fetchMetadataDocument = async (url: URL): Promise<unknown> => {
  const deadline = AbortSignal.timeout(metadataFetchTimeoutMs);
  const target = await resolvePublicAddress(url.hostname, deadline);
  const text = await new Promise<string>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "GET",
        headers: { accept: "application/json" },
        signal: deadline,
        // Connect to the address checked above, not to whatever a second lookup would answer.
        lookup: pinnedLookup(target),
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(
            new MetadataFetchError(
              `answered ${response.statusCode}${response.statusCode && response.statusCode >= 300 && response.statusCode < 400 ? " (redirects are not followed)" : ""}`,
            ),
          );
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > metadataMaxBytes) {
            response.destroy();
            reject(new MetadataFetchError(`is larger than ${metadataMaxBytes} bytes`));
          } else chunks.push(chunk);
        });
        response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        response.on("error", reject);
      },
    );
    outgoing.on("error", (error) => reject(deadline.aborted ? timedOut() : error));
    outgoing.end();
  });
  try {
    return JSON.parse(text);
  } catch {
    throw new MetadataFetchError("is not JSON");
  }
};
