/**
 * Partner clients for a benchmark. Partner limits are 120 requests a minute per client, so a load
 * of N req/s needs more than N/2 clients: the harness spreads requests over many fresh clients and
 * fetches their tokens from the real token endpoint. Clients are made by the ops command code.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

export type Partner = { clientId: string; secret: string; token: string };

const root = path.resolve(__dirname, "..", "..");

/** Basic credentials as RFC 6749 2.3.1 wants them (form-encoded, then base64). */
export const basicAuth = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** POST /oauth/token with client_credentials; the access token. */
export const fetchToken = async (
  baseUrl: string,
  clientId: string,
  secret: string,
): Promise<string> => {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: basicAuth(clientId, secret),
    },
    body: "grant_type=client_credentials",
  });
  if (!response.ok)
    throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
};

/** `count` new partner clients with tokens (created in this process by the ops commands' code). */
export const createPartners = async (options: {
  baseUrl: string;
  databaseUrl: string;
  count: number;
  scopes?: string;
}): Promise<Partner[]> => {
  process.env.DATABASE_URL = options.databaseUrl;
  const { createClient } = await import("../../server/edges/ops/commands");
  const partners: Partner[] = [];
  for (let i = 0; i < options.count; i++) {
    const created = await createClient({
      name: `bench ${Date.now()} ${i}`,
      scopes: options.scopes ?? "catalog:read checkout:write",
      redirectUris: [],
      linking: false,
    });
    partners.push({ clientId: created.client_id, secret: created.client_secret, token: "" });
  }
  for (let i = 0; i < partners.length; i += 16) {
    await Promise.all(
      partners
        .slice(i, i + 16)
        .map(
          async (partner) =>
            (partner.token = await fetchToken(options.baseUrl, partner.clientId, partner.secret)),
        ),
    );
  }
  return partners;
};

/** One client made with the ops CLI itself (`npm run ops -- client:create --json`). */
export const createClientWithCli = (
  databaseUrl: string,
  scopes = "catalog:read checkout:write",
) => {
  const output = execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
      path.join(root, "server", "edges", "ops", "cli.ts"),
      "client:create",
      "--name",
      "bench token",
      "--scopes",
      scopes,
      "--json",
    ],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    },
  ).toString();
  const created = JSON.parse(output.trim().split("\n").pop()!) as {
    client_id: string;
    client_secret: string;
  };
  return { clientId: created.client_id, secret: created.client_secret };
};

/** Round-robin over the partners' tokens, so no client passes its per-minute limit. */
export const tokenRotation = (partners: Partner[]) => {
  let next = 0;
  return () => `Bearer ${partners[next++ % partners.length].token}`;
};
