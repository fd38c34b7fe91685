/**
 * Fetches a Client ID Metadata Document (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-
 * metadata-document) without letting a client make this server call anything it should not: https
 * only, the host resolved once and every address checked (never private, loopback, link-local,
 * multicast or reserved) and the connection pinned to the checked address (no DNS rebinding between
 * check and use), no redirects, 3 seconds in all, 5 KiB at most. CLIENT_METADATA_LOOPBACK=on (sandbox
 * only; `npm start` refuses it in production) admits loopback addresses, so a test can serve the
 * document from this machine; other private ranges stay refused.
 *
 * The 3 seconds include the DNS lookup (issue 24, H2). Names are resolved with c-ares
 * (`dns.promises.Resolver`, A and AAAA), which queries the network from the event loop, never with
 * `dns.lookup`, whose getaddrinfo holds one of libuv's 4 threads for as long as the system resolver
 * takes: a slow resolver named by a client would otherwise stall scrypt at sign-in, file reads and
 * the database's own lookups. The resolver is cancelled at the deadline and the wait raced against
 * it, so nothing outlives the 3 seconds. (c-ares reads /etc/resolv.conf but not /etc/hosts: a
 * metadata document is always published under a public DNS name.)
 */
import { Resolver } from "node:dns/promises";
import { request } from "node:https";
import { BlockList, isIP } from "node:net";
import { env } from "../platform/env";

export const metadataFetchTimeoutMs = 3000;
const metadataMaxBytes = 5 * 1024;

export class MetadataFetchError extends Error {}

// One list per family: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const blocked = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.ipv4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.ipv6.addSubnet(network, prefix, "ipv6");
}
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

const isLoopbackAllowed = () => env().CLIENT_METADATA_LOOPBACK === "on";

/** Why this address may not be fetched from, or undefined when it may. */
export const addressProblem = (address: string): string | undefined => {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped =
    family === "ipv6" ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  if (mapped) return addressProblem(mapped);
  if (loopback.check(address, family))
    return isLoopbackAllowed() ? undefined : "is a loopback address";
  return blocked[family].check(address, family) ? "is a private or reserved address" : undefined;
};

type ResolvedAddress = { address: string; family: number };
/** Resolves a host name to its addresses; must give up when `signal` aborts. */
export type HostResolver = (hostname: string, signal: AbortSignal) => Promise<ResolvedAddress[]>;

/** A c-ares resolver (event loop, no libuv thread): A and AAAA, each query 1 s, 2 tries; `servers` for tests. */
export const createDnsResolver =
  (options: { servers?: string[] } = {}): HostResolver =>
  async (hostname, signal) => {
    const resolver = new Resolver({ timeout: 1000, tries: 2 });
    if (options.servers) resolver.setServers(options.servers);
    const cancel = () => resolver.cancel();
    signal.addEventListener("abort", cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([
        resolver.resolve4(hostname),
        resolver.resolve6(hostname),
      ]);
      return [
        ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  };

let hostResolver: HostResolver = createDnsResolver();
/** Replaces the resolver (tests: a DNS server that never answers); undefined restores c-ares with the system's servers. */
export const setHostResolver = (resolver: HostResolver | undefined) => {
  hostResolver = resolver ?? createDnsResolver();
};

const timedOut = () => new MetadataFetchError(`did not answer within ${metadataFetchTimeoutMs} ms`);

/** `work`, or a timeout error as soon as `signal` aborts (whatever `work` still does is dropped). */
const beforeDeadline = <T>(work: Promise<T>, signal: AbortSignal) => {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(timedOut());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(timedOut());
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
};

/** The one address to connect to: every address the host resolves to must be public. Resolved before `deadline`. */
const resolvePublicAddress = async (hostname: string, deadline: AbortSignal) => {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await beforeDeadline(
        hostResolver(bare, deadline).catch(() => []),
        deadline,
      );
  if (!addresses.length) throw new MetadataFetchError(`${hostname} does not resolve`);
  for (const { address } of addresses) {
    const problem = addressProblem(address);
    if (problem) throw new MetadataFetchError(`${hostname} ${problem}`);
  }
  return addresses[0];
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
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all)
            (
              callback as unknown as (
                error: null,
                addresses: { address: string; family: number }[],
              ) => void
            )(null, [target]);
          else callback(null, target.address, target.family);
        },
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
