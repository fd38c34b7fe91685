/**
 * Where webhooks may go. An endpoint URL is https (on a developer's machine also http to a loopback
 * host, so a partner can test there), without credentials in it. Before each attempt the host is
 * resolved and every address checked, and the connection is pinned to the checked address (no
 * second lookup a DNS rebinding could answer differently): never a loopback, private, link-local,
 * carrier-grade NAT, multicast or reserved address, in production and in any sandbox others can
 * reach (anyone may sign up there, and must not map the network it runs in); only a sandbox whose
 * PUBLIC_URL is loopback (a developer's machine) also sends to loopback and private addresses,
 * never link-local ones (cloud metadata services live there). The ranges and the resolution (DNS
 * from the event loop, never a libuv thread) are server/platform/http/outbound-host.ts's, the one
 * rule for every host an outsider names.
 */
import {
  type AddressPolicy,
  isLoopbackHost,
  literalHostProblem,
  resolveCheckedHost,
  type ResolvedAddress,
  UnreachableHostError,
} from "../../platform/http/outbound-host";
import { currentEnvironment, type ServiceEnvironment } from "../../auth";
import { env } from "../../platform/env";

/** `public-only`: the production blocklist; `developer-machine`: loopback and private allowed too. */
export type DestinationRules = "public-only" | "developer-machine";

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
  const isPlainHttpAllowed =
    parsed.protocol === "http:" && rules === "developer-machine" && isLoopbackHost(parsed.hostname);
  if (parsed.protocol !== "https:" && !isPlainHttpAllowed)
    return rules === "developer-machine"
      ? "must be https (http only to localhost, 127.0.0.1 or [::1] on a developer's machine)"
      : "must be https";
  // A host that is an address (or localhost) is judged now; a name, before each attempt.
  const problem = literalHostProblem(parsed.hostname, policyOf(rules));
  return problem
    ? `must not be ${problem.replace(/^is /, "")}: webhooks are never sent there`
    : null;
};

/** The address policy of server/platform/http/outbound-host.ts that `rules` stand for. */
const policyOf = (rules: DestinationRules): AddressPolicy =>
  rules === "public-only" ? "public" : "developer-machine";

/**
 * The address to connect to for `hostname`, after checking every address it resolves to; resolved
 * (without a libuv thread) before `signal` aborts: the attempt's 10 seconds include the lookup.
 */
export const resolveDestination = async (
  hostname: string,
  rules: DestinationRules,
  signal: AbortSignal,
): Promise<ResolvedAddress> => {
  try {
    return await resolveCheckedHost(hostname, { policy: policyOf(rules), signal });
  } catch (error) {
    if (error instanceof UnreachableHostError && error.reason === "refused")
      throw new Error(
        `${hostname} resolves to ${error.address}, an address webhooks are never sent to`,
      );
    throw error;
  }
};
