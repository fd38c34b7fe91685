/**
 * The one rule for connecting to a host that someone outside names: a partner's webhook endpoint
 * (server/partners/webhooks/), an assistant's client metadata document (server/oauth/). Which
 * addresses may be reached (`addressProblem`), and how the name is resolved (`resolveCheckedHost`):
 * - every address the name resolves to is checked, and the connection is then pinned to the checked
 *   one (`pinnedLookup`), so a DNS rebinding between the check and the connection cannot move it;
 * - names are resolved with c-ares (`dns.promises.Resolver`, A and AAAA, 1 s a query, 2 tries), which
 *   queries from the event loop, never with `dns.lookup`: getaddrinfo runs on libuv's thread pool
 *   (shared by every thread of the process), which lets lookups take 2 of its 4 threads, each for as
 *   long as the system resolver waits. A host whose name server never answers, named by anyone who
 *   signs up, would queue every other lookup of the process behind it (the SMTP relay's, Stripe's,
 *   the database's when named: localhost's waited 39.8 s behind eight such, measured) and halve the
 *   pool for scrypt at sign-in (issue 24, H2; docs/adr/0137). The wait ends at the caller's deadline,
 *   and the resolver is cancelled then;
 * - c-ares does not read /etc/hosts: `localhost` and the names under it (RFC 6761) are loopback
 *   without asking DNS; every other name is resolved by DNS, as a partner's or a client's must be.
 */
import { Resolver } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * What may be reached: `public` addresses only (production, and any sandbox others can reach);
 * `public-and-loopback` (a sandbox's tests serving a document from this machine); `developer-machine`
 * (a sandbox nobody else can reach: private and loopback too, never link-local, where cloud metadata
 * services answer).
 */
export type AddressPolicy = "public" | "public-and-loopback" | "developer-machine";

type Family = "ipv4" | "ipv6";
const listOf = (family: Family, ranges: readonly (readonly [string, number])[]) => {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
};

// One list per family: a BlockList also matches an IPv4 address against IPv4-mapped IPv6 rules.
// Loopback and link-local are lists of their own (the policies differ on them).
const loopback = { ipv4: listOf("ipv4", [["127.0.0.0", 8]]), ipv6: listOf("ipv6", [["::1", 128]]) };
const linkLocal = {
  ipv4: listOf("ipv4", [["169.254.0.0", 16]]),
  ipv6: listOf("ipv6", [["fe80::", 10]]),
};
const reserved = {
  ipv4: listOf("ipv4", [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ]),
  ipv6: listOf("ipv6", [
    ["::", 128],
    ["64:ff9b::", 96],
    ["100::", 64],
    ["2001:db8::", 32],
    ["fc00::", 7],
    ["ff00::", 8],
  ]),
};

/**
 * The address in one spelling: an IPv6 address as the URL standard writes it (lower case,
 * compressed, a mapped IPv4 address in hex), and an IPv4-mapped one as the IPv4 address it
 * carries, whatever its spelling (`::ffff:10.0.0.1`, `::ffff:a00:1`, `0:0:0:0:0:ffff:a00:1`).
 * Undefined for what is not an address (a zone index, text).
 */
const plainAddress = (address: string): { address: string; family: Family } | undefined => {
  const version = isIP(address);
  if (version === 4) return { address, family: "ipv4" };
  if (version !== 6) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return { address: canonical, family: "ipv6" };
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, family: "ipv4" };
};

type PlainAddress = NonNullable<ReturnType<typeof plainAddress>>;
const isIn = (lists: Record<Family, BlockList>, plain: PlainAddress) =>
  lists[plain.family].check(plain.address, plain.family);

/** Why `address` may not be reached under `policy`, or undefined when it may. */
export const addressProblem = (address: string, policy: AddressPolicy): string | undefined => {
  const plain = plainAddress(address);
  if (!plain) return "is not an IP address";
  const is = (lists: Record<Family, BlockList>) => isIn(lists, plain);
  if (is(linkLocal)) return "is a link-local address";
  if (is(loopback)) return policy === "public" ? "is a loopback address" : undefined;
  if (policy === "developer-machine") return undefined;
  return is(reserved) ? "is a private or reserved address" : undefined;
};

export type ResolvedAddress = { address: string; family: 4 | 6 };
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
        ...(v4.status === "fulfilled"
          ? v4.value.map((address) => ({ address, family: 4 as const }))
          : []),
        ...(v6.status === "fulfilled"
          ? v6.value.map((address) => ({ address, family: 6 as const }))
          : []),
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

/** Why a host cannot be connected to: `timeout` (the deadline passed first), `unresolved`, or `refused` (an address the policy forbids). */
export class UnreachableHostError extends Error {
  constructor(
    readonly reason: "timeout" | "unresolved" | "refused",
    message: string,
    /** The refused address, for `refused` (for our logs: the message, which a client may see, does not name it). */
    readonly address?: string,
  ) {
    super(message);
  }
}

/** `work`, or a timeout error as soon as `signal` aborts (whatever `work` still does is dropped). */
const beforeDeadline = <T>(work: Promise<T>, signal: AbortSignal, hostname: string) => {
  const timedOut = () =>
    new UnreachableHostError("timeout", `${hostname} did not resolve before the deadline`);
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(timedOut());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(timedOut());
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
};

const isLocalhostName = (hostname: string) => /^(.+\.)?localhost\.?$/i.test(hostname);

/**
 * The addresses a URL's hostname stands for without asking DNS (an IP literal, brackets or not; a
 * localhost name), or undefined for a DNS name.
 */
const addressesWithoutDns = (hostname: string): ResolvedAddress[] | undefined => {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  const version = isIP(bare);
  if (version === 4 || version === 6) return [{ address: bare, family: version }];
  if (isLocalhostName(bare))
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  return undefined;
};

/** The first of `addresses` that `policy` refuses, with why. */
const firstRefused = (addresses: readonly ResolvedAddress[], policy: AddressPolicy) => {
  for (const { address } of addresses) {
    const problem = addressProblem(address, policy);
    if (problem) return { address, problem };
  }
  return undefined;
};

/**
 * Why `hostname` cannot be reached under `policy` when that is known without DNS (an IP literal, a
 * localhost name): a registration refuses it at once. Undefined for a DNS name, checked when resolved.
 */
export const literalHostProblem = (hostname: string, policy: AddressPolicy) =>
  firstRefused(addressesWithoutDns(hostname) ?? [], policy)?.problem;

/** True for a hostname that is loopback without asking DNS: localhost (and names under it), 127.0.0.0/8, [::1]. */
export const isLoopbackHost = (hostname: string) =>
  Boolean(
    addressesWithoutDns(hostname)?.every(({ address }) => {
      const plain = plainAddress(address);
      return plain !== undefined && isIn(loopback, plain);
    }),
  );

/**
 * The one address to connect to for `hostname` (a URL's hostname; an IPv6 literal in brackets or
 * not): every address it resolves to must pass `policy`, and it must resolve before `signal` aborts.
 */
export const resolveCheckedHost = async (
  hostname: string,
  options: { policy: AddressPolicy; signal: AbortSignal },
): Promise<ResolvedAddress> => {
  const addresses =
    addressesWithoutDns(hostname) ??
    (await beforeDeadline(
      hostResolver(hostname, options.signal).catch(() => []),
      options.signal,
      hostname,
    ));
  if (!addresses.length)
    throw new UnreachableHostError("unresolved", `${hostname} does not resolve`);
  const refused = firstRefused(addresses, options.policy);
  if (refused)
    throw new UnreachableHostError("refused", `${hostname} ${refused.problem}`, refused.address);
  return addresses[0];
};

/** An http(s).request `lookup` that answers `target` whatever the name: the connection goes where the check said. */
export const pinnedLookup =
  (target: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
