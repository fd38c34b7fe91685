/**
 * Where webhooks may go. An endpoint URL is https (in the sandbox also http to a loopback host, so
 * a partner can test on their machine), without credentials in it. Before each attempt the host
 * is resolved and every address checked, and the connection is pinned to the checked address (no
 * second lookup a DNS rebinding could answer differently): in production never a loopback,
 * private, link-local, carrier-grade NAT, multicast or reserved address; in the sandbox never a
 * link-local one (cloud metadata services live there), loopback and private allowed.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { ServiceEnvironment } from "../auth/environment";

const loopbackHosts = ["localhost", "127.0.0.1", "[::1]"];

/** True for localhost, 127.0.0.0/8 and [::1]. */
export const isLoopbackHost = (hostname: string) => loopbackHosts.includes(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);

/** Why `url` cannot be an endpoint in `environment`, or null when it can. */
export const endpointUrlProblem = (url: string, environment: ServiceEnvironment): string | null => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (parsed.username || parsed.password) return "must not contain a user name or password";
  if (parsed.hash) return "must not contain a fragment";
  if (parsed.protocol === "https:") return null;
  if (parsed.protocol === "http:" && environment === "sandbox" && isLoopbackHost(parsed.hostname)) return null;
  return environment === "sandbox" ? "must be https (http only to localhost, 127.0.0.1 or [::1] in the sandbox)" : "must be https";
};

const privateRanges = new BlockList();
for (const [network, prefix] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4]] as const) {
  privateRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [["::", 128], ["::1", 128], ["64:ff9b::", 96], ["100::", 64], ["2001:db8::", 32], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}
const linkLocal = new BlockList();
linkLocal.addSubnet("169.254.0.0", 16, "ipv4");
linkLocal.addSubnet("fe80::", 10, "ipv6");

/** True when `address` may not receive webhooks in `environment`. */
export const isBlockedAddress = (address: string, environment: ServiceEnvironment): boolean => {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isBlockedAddress(mapped[1], environment);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mappedHex) {
    const [high, low] = [parseInt(mappedHex[1], 16), parseInt(mappedHex[2], 16)];
    return isBlockedAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, environment);
  }
  return (environment === "production" ? privateRanges : linkLocal).check(address, family);
};

/** The address to connect to for `hostname`, after checking every address it resolves to. */
export const resolveDestination = async (hostname: string, environment: ServiceEnvironment): Promise<{ address: string; family: 4 | 6 }> => {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) as 4 | 6 }] : ((await lookup(host, { all: true })) as { address: string; family: 4 | 6 }[]);
  if (addresses.length === 0) throw new Error(`${hostname} does not resolve`);
  const blocked = addresses.find((candidate) => isBlockedAddress(candidate.address, environment));
  if (blocked) throw new Error(`${hostname} resolves to ${blocked.address}, an address webhooks are never sent to`);
  return addresses[0];
};
