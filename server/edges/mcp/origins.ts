/**
 * DNS-rebinding protection of the connectors (MCP transports, security warning): a request must be
 * addressed to this service's own host (PUBLIC_URL), and a browser's Origin, when sent, must be
 * this service's own origin. When PUBLIC_URL is itself a loopback address (a local sandbox), any
 * loopback host and port is accepted as well: only this machine can reach it, and a page of
 * another site (evil.example resolving to 127.0.0.1) still names its own host and is refused.
 */
import { env } from "../../platform/env";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

const hostnameOf = (host: string) => {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
};

const publicUrl = () => new URL(env().PUBLIC_URL);
const isLocalService = () => loopbackHosts.has(publicUrl().hostname);

/** Whether the Host header names this service. */
export const isAllowedHost = (host: string | null) => {
  if (!host) return false;
  if (host.toLowerCase() === publicUrl().host) return true;
  const hostname = hostnameOf(host);
  return isLocalService() && hostname !== undefined && loopbackHosts.has(hostname);
};

/** Whether an Origin header (absent for assistants that are not browsers) is this service's own. */
export const isAllowedOrigin = (origin: string | null) => {
  if (origin === null) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === publicUrl().origin) return true;
  return (
    isLocalService() &&
    (url.protocol === "http:" || url.protocol === "https:") &&
    loopbackHosts.has(url.hostname)
  );
};
