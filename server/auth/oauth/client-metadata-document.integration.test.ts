/**
 * Client ID Metadata Documents at /oauth/authorize, served by a real https server on this machine
 * through the documented test allowance (CLIENT_METADATA_LOOPBACK=on; its self-signed certificate
 * is trusted by node's https agent for this file): a good document becomes a public agent client
 * shown on consent, whose code buys a token for the resource it asked for; a redirect, a wrong
 * client_id, an oversized or slow answer, an unsafe redirect URI and private addresses are refused.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, globalAgent, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPerson } from "../../../prisma/factories";
import { db } from "../../db";
import { AppError } from "../../errors";
import { authorize, authorizeParams, pkcePair, submitConsent, token } from "../../testing/oauth";
import { authenticateBearer, mcpAccountAudience } from "../tokens";
import { addressProblem, metadataFetchTimeoutMs } from "./client-metadata-fetch";
import { loadConsentRequest } from "./consent";
import { listConnectedApps } from "./grants";

process.env.CLIENT_METADATA_LOOPBACK = "on";

let server: Server;
let origin: string;
const redirectUri = "http://127.0.0.1:8976/callback";

const documentFor = (clientId: string, overrides: Record<string, unknown> = {}) => ({ client_id: clientId, client_name: "Metadata Assistant", redirect_uris: [redirectUri], ...overrides });

beforeAll(async () => {
  // A throwaway certificate for 127.0.0.1, trusted by this process's https agent only.
  const dir = mkdtempSync(path.join(tmpdir(), "cimd-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
  const cert = readFileSync(path.join(dir, "cert.pem"));
  globalAgent.options.ca = [cert];
  server = createServer({ key: readFileSync(path.join(dir, "key.pem")), cert }, (request, response) => {
    const clientId = `${origin}${request.url}`;
    const send = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.url === "/good.json") return send(documentFor(clientId));
    if (request.url === "/redirect.json") return response.writeHead(302, { location: "/good.json" }).end();
    if (request.url === "/wrong-id.json") return send(documentFor(`${origin}/good.json`));
    if (request.url === "/big.json") return send(documentFor(clientId, { client_uri: `https://example.com/${"a".repeat(6000)}` }));
    if (request.url === "/unsafe.json") return send(documentFor(clientId, { redirect_uris: ["javascript:alert(1)"] }));
    if (request.url === "/slow.json") return setTimeout(() => send(documentFor(clientId)), metadataFetchTimeoutMs + 1000);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const authorizeWith = (clientId: string, overrides: Record<string, string> = {}) => authorize(authorizeParams(clientId, redirectUri, pkcePair().challenge, overrides));

describe("client ID metadata documents", () => {
  it("turns a good document into a public agent client and sends the person on to consent", async () => {
    const clientId = `${origin}/good.json`;
    const response = await authorizeWith(clientId);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^\/oauth\/consent\?/);
    const client = await db().apiClient.findUniqueOrThrow({ where: { id: clientId } });
    expect(client).toMatchObject({ name: "Metadata Assistant", kind: "agent", secretHash: null, redirectUris: [redirectUri] });
    expect(client.scopes).not.toContain("purchase:write");
    expect((await authorizeWith(clientId, { scope: "purchase:write" })).headers.get("location")).toContain("error=invalid_scope");
  });

  it("names the app on consent with its client_id host beside its self-asserted name (L12)", async () => {
    const clientId = `${origin}/good.json`;
    const host = new URL(origin).host;
    const request = await loadConsentRequest(new URLSearchParams(authorizeParams(clientId, redirectUri, pkcePair().challenge)));
    expect(request?.client.displayName).toBe(`Metadata Assistant (${host})`);
    const { person } = await createPerson();
    await submitConsent({ personId: person.id, params: authorizeParams(clientId, redirectUri, pkcePair().challenge) });
    const [app] = await listConnectedApps(db(), { personId: person.id, now: new Date() });
    expect(app.name).toBe(`Metadata Assistant (${host})`);
  });

  it("issues a code whose token is bound to the connector it asked for (RFC 8707), refused elsewhere", async () => {
    const clientId = `${origin}/good.json`;
    const { person } = await createPerson();
    const pkce = pkcePair();
    const resource = `${process.env.PUBLIC_URL}/mcp/account`;
    const params = authorizeParams(clientId, redirectUri, pkce.challenge, { scope: "profile:read orders:read", resource });
    const consent = await submitConsent({ personId: person.id, params });
    const code = new URL(consent.headers.get("location")!).searchParams.get("code")!;
    const exchanged = await token({ grant_type: "authorization_code", code, code_verifier: pkce.verifier, redirect_uri: redirectUri, client_id: clientId, resource });
    expect(exchanged.status).toBe(200);
    const { access_token: accessToken } = await exchanged.json();
    await expect(authenticateBearer(`Bearer ${accessToken}`, new Date(), mcpAccountAudience)).resolves.toMatchObject({ clientId, personId: person.id });
    await expect(authenticateBearer(`Bearer ${accessToken}`, new Date())).rejects.toBeInstanceOf(AppError);
  });

  it.each([
    ["/redirect.json", "answered 302 (redirects are not followed)"],
    ["/wrong-id.json", "its client_id is not the address it was fetched from"],
    ["/big.json", "is larger than 5120 bytes"],
    ["/unsafe.json", "must use https"],
    ["/missing.json", "answered 404"],
    ["/slow.json", `did not answer within ${metadataFetchTimeoutMs} ms`],
  ])("refuses %s with an error page, never a redirect", async (pathname, reason) => {
    const response = await authorizeWith(`${origin}${pathname}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(reason);
    expect(await db().apiClient.findUnique({ where: { id: `${origin}${pathname}` } })).toBeNull();
  });

  it("never fetches from a private, link-local or reserved address (loopback only under the test allowance)", async () => {
    for (const address of ["10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "224.0.0.1"]) {
      expect(addressProblem(address), address).toBeDefined();
    }
    expect(addressProblem("127.0.0.1")).toBeUndefined();
    expect(addressProblem("8.8.8.8")).toBeUndefined();
    expect(addressProblem("2606:4700::1111")).toBeUndefined();
    const privateHost = await authorizeWith("https://10.255.255.1/client.json");
    expect(await privateHost.text()).toContain("is a private or reserved address");
  });
});
