/**
 * Operator commands, validated with zod, through the same capabilities the service uses: each
 * command calls the owning capability's index, never a table itself.
 */
import { z } from "zod";
import { db } from "../../platform/db";
import { allScopes, insertClient, setClientPurchases } from "../../auth";
import { randomId, randomSecret, sha256 } from "../../core/ids";
import { credentialTag, currentEnvironment } from "../../auth";
import { revokeClient as revoke } from "../../oauth";
import { setStoreAgentCheckout } from "../../catalogue";

/** Stops an operator command with `message` (the CLI prints it). */
export const fail = (message: string): never => {
  throw new Error(message);
};

const ZCreateClient = z.object({
  name: z
    .string({ error: "--name is required" })
    .trim()
    .min(1, "--name is required")
    .max(100, "--name must be at most 100 characters"),
  scopes: z
    .string({ error: "--scopes is required" })
    .transform((value) => [...new Set(value.split(/[\s,]+/).filter(Boolean))])
    .pipe(
      z
        .array(z.enum(allScopes, { error: `scopes must be among: ${allScopes.join(" ")}` }))
        .min(1, "--scopes needs at least one scope"),
    ),
  redirectUris: z.array(
    z.url({ protocol: /^https?$/, error: "--redirect-uri must be an absolute http(s) URL" }),
  ),
  linking: z.boolean(),
  contact: z.email({ error: "--contact must be an email address" }).toLowerCase().optional(),
});

const parse = <T>(schema: z.ZodType<T>, input: unknown): T => {
  const result = schema.safeParse(input);
  return result.success
    ? result.data
    : fail(result.error.issues.map((issue) => issue.message).join("; "));
};

/** Creates an approved partner client; the secret is returned here only and stored as SHA-256. */
export const createClient = async (input: unknown) => {
  const options = parse(ZCreateClient, input);
  const id = randomId(`cli_${credentialTag()}`);
  const secret = randomSecret(`sec_${credentialTag()}`);
  await insertClient(db(), {
    id,
    name: options.name,
    secretHash: sha256(secret),
    scopes: options.scopes,
    redirectUris: options.redirectUris,
    linkingEnabled: options.linking,
    contactEmail: options.contact,
    environment: currentEnvironment(),
  });
  return {
    client_id: id,
    client_secret: secret,
    name: options.name,
    scopes: options.scopes,
    redirect_uris: options.redirectUris,
    linking: options.linking,
    contact: options.contact ?? null,
  };
};

/** Revokes a client: its secret and every token it holds stop working on the next request. */
export const revokeClient = async (clientId: string | undefined) => {
  if (!clientId) fail("usage: client:revoke CLIENT_ID");
  // The price watches it set can no longer buy: they end now, each person emailed.
  const revoked = (await revoke(db(), clientId!, new Date())) ?? fail(`no client ${clientId}`);
  return {
    client_id: clientId,
    revoked: true,
    revoked_at: revoked.revokedAt.toISOString(),
    changed: revoked.changed,
    price_watches_ended: revoked.priceWatchesEnded,
  };
};

/** Changes a store's settings (for now whether assistants may buy directly). */
export const setStore = async (slug: string | undefined, input: { agentCheckout?: string }) => {
  if (!slug) fail("usage: store:set SLUG --agent-checkout direct|link");
  const agentCheckout = parse(
    z.enum(["direct", "link"], { error: "--agent-checkout must be direct or link" }),
    input.agentCheckout,
  );
  const store =
    (await setStoreAgentCheckout(db(), slug!, agentCheckout)) ?? fail(`no store ${slug}`);
  return { slug: store.slug, agent_checkout: store.agentCheckout };
};

/** Switches assistant purchases on or off for one client (null until set: on in sandbox, off in production). */
export const setClient = async (clientId: string | undefined, input: { purchases?: string }) => {
  if (!clientId) fail("usage: client:set CLIENT_ID --purchases on|off");
  const purchases = parse(
    z.enum(["on", "off"], { error: "--purchases must be on or off" }),
    input.purchases,
  );
  const client = await setClientPurchases(db(), clientId!, purchases === "on").catch(() =>
    fail(`no client ${clientId}`),
  );
  return {
    client_id: client.id,
    kind: client.kind,
    purchases: client.purchasesEnabled ? "on" : "off",
  };
};
