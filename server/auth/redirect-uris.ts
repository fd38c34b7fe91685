/**
 * The one rule for redirect URIs, used when a partner applies, when an agent registers and at
 * /oauth/authorize: an absolute https URL; plain http only to a loopback host (RFC 8252 native
 * apps) and only in sandbox; never a fragment, wildcard, user info or a non-http scheme
 * (javascript:, data:, custom schemes). Matching at /oauth/authorize is exact string equality.
 */
import type { ServiceEnvironment } from "./environment";
import { isLoopbackHost } from "../platform/http/outbound-host";

/** The reason a redirect URI is refused, or undefined when it is acceptable. */
export const redirectUriProblem = (
  value: string,
  environment: ServiceEnvironment,
): string | undefined => {
  if (value.length > 2000) return "must be at most 2000 characters";
  if (/\s/.test(value)) return "must not contain spaces";
  if (value.includes("*")) return "must not contain a wildcard";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (value.includes("#")) return "must not contain a fragment";
  if (url.username || url.password) return "must not contain user information";
  if (url.protocol === "https:") return undefined;
  if (url.protocol !== "http:") return "must use https";
  if (!isLoopbackHost(url.hostname)) return "must use https (plain http is only for localhost)";
  if (environment !== "sandbox") return "must use https in production";
  return undefined;
};

/** The host people see on the consent page ("where you will be sent back"). */
export const redirectHost = (value: string) => new URL(value).host;

/** Whether the redirect goes back to the person's own computer (the consent page says so): the one notion of a loopback host. */
export const isLoopback = (value: string) => isLoopbackHost(new URL(value).hostname);
