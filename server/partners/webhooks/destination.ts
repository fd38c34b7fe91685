/**
 * Where webhooks may go. An endpoint URL is https (on a developer's machine also http to a loopback
 * host, so a partner can test there), without credentials in it. Before each attempt the host is
 * resolved and every address checked, and the connection is pinned to the checked address (no
 * second lookup a DNS rebinding could answer differently): never a loopback, private, link-local,
 * carrier-grade NAT, multicast or reserved address, in production and in any sandbox others can
 * reach (anyone may sign up there, and must not map the network it runs in); only a sandbox whose
 * PUBLIC_URL is loopback (a developer's machine) also sends to loopback and private addresses,
 * never link-local ones (cloud metadata services live there).
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { currentEnvironment, type ServiceEnvironment } from "../../auth";
import { env } from "../../platform/env";

/** `public-only`: the production blocklist; `developer-machine`: loopback and private allowed too. */
export type DestinationRules = "public-only" | "developer-machine";

const loopbackHosts = ["localhost", "127.0.0.1", "[::1]"];

/** True for localhost, 127.0.0.0/8 and [::1]. */
const isLoopbackHost = (hostname: string) =>
  loopbackHosts.includes(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);

/** The rules of a service: relaxed only for a sandbox nobody else can reach (its PUBLIC_URL is loopback). */
export const destinationRulesFor = (options: {
  environment: ServiceEnvironment;
  publicUrl: string;
}): DestinationRules =>
  options.environment === "sandbox" && isLoopbackHost(new URL(options.publicUrl).hostname)
    ? "developer-machine"
    : "public-only";

/** This process's rules, from SERVICE_ENV and PUBLIC_URL. */
export const currentDestinationRules = () =>
  destinationRulesFor({ environment: currentEnvironment(), publicUrl: env().PUBLIC_URL });

/** Why `url` cannot be an endpoint under `rules`, or null when it can. */
export const endpointUrlProblem = (url: string, rules: DestinationRules): string | null => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (parsed.username || parsed.password) return "must not contain a user name or password";
  if (parsed.hash) return "must not contain a fragment";
  if (parsed.protocol === "https:") return null;
  if (
    parsed.protocol === "http:" &&
    rules === "developer-machine" &&
    isLoopbackHost(parsed.hostname)
  )
    return null;
  return rules === "developer-machine"
    ? "must be https (http only to localhost, 127.0.0.1 or [::1] on a developer's machine)"
    : "must be https";
};

const privateRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
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
  privateRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}
const linkLocal = new BlockList();
linkLocal.addSubnet("169.254.0.0", 16, "ipv4");
linkLocal.addSubnet("fe80::", 10, "ipv6");

/** True when `address` may not receive webhooks under `rules`. */
export const isBlockedAddress = (address: string, rules: DestinationRules): boolean => {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isBlockedAddress(mapped[1], rules);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mappedHex) {
    const [high, low] = [parseInt(mappedHex[1], 16), parseInt(mappedHex[2], 16)];
    return isBlockedAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, rules);
  }
  return (rules === "public-only" ? privateRanges : linkLocal).check(address, family);
};

/** The address to connect to for `hostname`, after checking every address it resolves to. */
export const resolveDestination = async (
  hostname: string,
  rules: DestinationRules,
): Promise<{ address: string; family: 4 | 6 }> => {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : ((await lookup(host, { all: true })) as { address: string; family: 4 | 6 }[]);
  if (addresses.length === 0) throw new Error(`${hostname} does not resolve`);
  const blocked = addresses.find((candidate) => isBlockedAddress(candidate.address, rules));
  if (blocked)
    throw new Error(
      `${hostname} resolves to ${blocked.address}, an address webhooks are never sent to`,
    );
  return addresses[0];
};
