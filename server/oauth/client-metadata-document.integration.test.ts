/**
 * Client ID Metadata Documents at /oauth/authorize, served by a real https server on this machine
 * through the documented test allowance (CLIENT_METADATA_LOOPBACK=on; its self-signed certificate
 * is trusted by node's https agent for this file): a good document becomes a public agent client
 * shown on consent, whose code buys a token for the resource it asked for; a redirect, a wrong
 * client_id, an oversized or slow answer, an unsafe redirect URI and private addresses are refused.
 * Abuse (issue 24, H2): a DNS server that never answers costs at most the 3-second deadline and no
 * libuv thread; fetches run at most 8 at once; one address may make 10 fetches a minute; a failure
 * is remembered for a minute; no client row exists until a person approves.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, globalAgent, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useRebindingResolver } from "../testing/rebinding-resolver";
import { GET as authorizeGet } from "@/app/oauth/authorize/route";
import { createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { AppError } from "../core/errors";
import { authorizeParams, pkcePair, submitConsent, token } from "../testing/oauth";
import { authenticateBearer, mcpAccountAudience } from "../auth/tokens";
import { socketAddressHeader } from "../platform/http/client-ip";
import { purgeExpiredRecords } from "../platform/jobs/purge";
import { createDnsResolver, setHostResolver } from "../platform/http/outbound-host";
import { startSilentDns, timeThreadPool } from "../testing/silent-dns";
import { metadataFetchTimeoutMs } from "./client-metadata-fetch";
import { forgetMetadataDocuments, maxConcurrentFetches } from "./client-metadata-document";
import { loadConsentRequest } from "./consent";
import { listConnectedApps } from "./grants";

process.env.CLIENT_METADATA_LOOPBACK = "on";

let server: Server;
let origin: string;
/** Requests the server received, per path (without the query). */
const hits = new Map<string, number>();
let flakyIsGood = false;
const redirectUri = "http://127.0.0.1:8976/callback";

const documentFor = (clientId: string, overrides: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Metadata Assistant",
  redirect_uris: [redirectUri],
  ...overrides,
});

beforeAll(async () => {
  // A throwaway certificate for 127.0.0.1, trusted by this process's https agent only.
  const dir = mkdtempSync(path.join(tmpdir(), "cimd-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:rebinding.example",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const cert = readFileSync(path.join(dir, "cert.pem"));
  globalAgent.options.ca = [cert];
  server = createServer(
    { key: readFileSync(path.join(dir, "key.pem")), cert },
    (request, response) => {
      // The address it was fetched at, by IP or by name (the DNS rebinding test names it).
      const clientId = `https://${request.headers.host}${request.url}`;
      const pathname = new URL(clientId).pathname;
      hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
      const send = (body: unknown) =>
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (request.url === "/good.json" || pathname === "/many.json")
        return send(documentFor(clientId));
      if (request.url === "/flaky.json")
        return flakyIsGood ? send(documentFor(clientId)) : response.writeHead(500).end();
      if (request.url === "/redirect.json")
        return response.writeHead(302, { location: "/good.json" }).end();
      if (request.url === "/wrong-id.json") return send(documentFor(`${origin}/good.json`));
      if (request.url === "/big.json")
        return send(
          documentFor(clientId, { client_uri: `https://example.com/${"a".repeat(6000)}` }),
        );
      if (request.url === "/unsafe.json")
        return send(documentFor(clientId, { redirect_uris: ["javascript:alert(1)"] }));
      if (request.url === "/slow.json")
        return setTimeout(() => send(documentFor(clientId)), metadataFetchTimeoutMs + 1000);
      response.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

let lastIp = 0;
/** A fresh client address, so tests do not share the per-address limits. */
const freshIp = () => `203.0.113.${++lastIp}`;

/** GET /oauth/authorize from `ip` (as npm start's front door reports the socket's address). */
const authorizeFrom = (ip: string, clientId: string, overrides: Record<string, string> = {}) =>
  authorizeGet(
    new Request(
      `http://localhost:3000/oauth/authorize?${new URLSearchParams(authorizeParams(clientId, redirectUri, pkcePair().challenge, overrides))}`,
      { headers: { [socketAddressHeader]: ip } },
    ),
  );

const authorizeWith = (clientId: string, overrides: Record<string, string> = {}) =>
  authorizeFrom(freshIp(), clientId, overrides);

afterEach(() => setHostResolver(undefined));

describe("client ID metadata documents", () => {
  it("turns a good document into a public agent client and sends the person on to consent", async () => {
    const clientId = `${origin}/good.json`;
    const response = await authorizeWith(clientId);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^\/oauth\/consent\?/);
    expect(await db().apiClient.findUnique({ where: { id: clientId } })).toBeNull();
    const { person } = await createPerson();
    expect(
      (
        await submitConsent({
          personId: person.id,
          params: authorizeParams(clientId, redirectUri, pkcePair().challenge),
        })
      ).status,
    ).toBe(303);
    const client = await db().apiClient.findUniqueOrThrow({ where: { id: clientId } });
    expect(client).toMatchObject({
      name: "Metadata Assistant",
      kind: "agent",
      secretHash: null,
      redirectUris: [redirectUri],
    });
    expect(client.scopes).not.toContain("purchase:write");
    expect(
      (await authorizeWith(clientId, { scope: "purchase:write" })).headers.get("location"),
    ).toContain("error=invalid_scope");
  });

  it("names the app on consent with its client_id host beside its self-asserted name (L12)", async () => {
    const clientId = `${origin}/good.json`;
    const host = new URL(origin).host;
    const request = await loadConsentRequest(
      new URLSearchParams(authorizeParams(clientId, redirectUri, pkcePair().challenge)),
    );
    expect(request?.client.displayName).toBe(`Metadata Assistant (${host})`);
    const { person } = await createPerson();
    await submitConsent({
      personId: person.id,
      params: authorizeParams(clientId, redirectUri, pkcePair().challenge),
    });
    const [app] = await listConnectedApps(db(), { personId: person.id, now: new Date() });
    expect(app.name).toBe(`Metadata Assistant (${host})`);
  });

  it("issues a code whose token is bound to the connector it asked for (RFC 8707), refused elsewhere", async () => {
    const clientId = `${origin}/good.json`;
    const { person } = await createPerson();
    const pkce = pkcePair();
    const resource = `${process.env.PUBLIC_URL}/mcp/account`;
    const params = authorizeParams(clientId, redirectUri, pkce.challenge, {
      scope: "profile:read orders:read",
      resource,
    });
    const consent = await submitConsent({ personId: person.id, params });
    const code = new URL(consent.headers.get("location")!).searchParams.get("code")!;
    const exchanged = await token({
      grant_type: "authorization_code",
      code,
      code_verifier: pkce.verifier,
      redirect_uri: redirectUri,
      client_id: clientId,
      resource,
    });
    expect(exchanged.status).toBe(200);
    const { access_token: accessToken } = await exchanged.json();
    await expect(
      authenticateBearer(`Bearer ${accessToken}`, new Date(), mcpAccountAudience),
    ).resolves.toMatchObject({ clientId, personId: person.id });
    await expect(authenticateBearer(`Bearer ${accessToken}`, new Date())).rejects.toBeInstanceOf(
      AppError,
    );
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

  it("never fetches from a private, link-local or reserved address (the ranges: server/platform/http/outbound-host.test.ts)", async () => {
    for (const host of ["10.255.255.1", "169.254.169.254", "[::ffff:a00:1]", "[fd00::1]"]) {
      const response = await authorizeWith(`https://${host}/client.json`);
      expect(response.status, host).toBe(400);
      expect(await response.text(), host).toMatch(/is a (private or reserved|link-local) address/);
    }
  });
});

describe("a document host whose name answers differently from one lookup to the next (B2-24, DNS rebinding)", () => {
  const rebindingUrl = (pathname: string) =>
    `https://rebinding.example:${new URL(origin).port}${pathname}`;

  it("fetches from the address it checked, not from what the name answers next", async () => {
    const lookups = useRebindingResolver("127.0.0.1", "10.0.0.1");
    const before = hits.get("/good.json") ?? 0;
    const response = await authorizeWith(rebindingUrl("/good.json"));
    expect(response.status).toBe(303);
    expect(hits.get("/good.json")).toBe(before + 1);
    expect(lookups).toEqual(["rebinding.example"]);
  });

  it("a refused answer when checked is refused, whatever the name answers next", async () => {
    const lookups = useRebindingResolver("169.254.169.254", "127.0.0.1");
    // Another document than the test above's, which the server may still hold fetched.
    const before = hits.get("/many.json") ?? 0;
    const response = await authorizeWith(rebindingUrl("/many.json?n=rebinding"));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("is a link-local address");
    expect(hits.get("/many.json") ?? 0).toBe(before);
    expect(lookups).toEqual(["rebinding.example"]);
  });
});

describe("metadata documents cannot be used to tie up or fill up the server (H2)", () => {
  it("a DNS server that never answers costs the 3-second deadline, holds no libuv thread, and past 8 fetches at once the next is told to retry", async () => {
    const dns = await startSilentDns();
    setHostResolver(createDnsResolver({ servers: [dns.server] }));
    try {
      const started = performance.now();
      const slow = Array.from({ length: maxConcurrentFetches }, (_, i) =>
        authorizeWith(`https://slow-dns-${i}.example/client.json`),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const busy = await authorizeWith("https://slow-dns-extra.example/client.json");
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("5");
      // libuv's pool is free: a system lookup and scrypt (sign-in's hash) answer at once.
      expect(await timeThreadPool()).toBeLessThan(1000);
      for (const response of await Promise.all(slow)) {
        expect(response.status).toBe(400);
        expect(await response.text()).toContain(
          `did not answer within ${metadataFetchTimeoutMs} ms`,
        );
      }
      expect(performance.now() - started).toBeLessThan(metadataFetchTimeoutMs + 1500);
      expect(dns.queries()).toBeGreaterThanOrEqual(maxConcurrentFetches);
    } finally {
      await dns.close();
    }
  }, 20_000);

  it("many distinct document URLs create no client row; the one a person approves does, and the purge removes it once unused", async () => {
    const ids = Array.from({ length: 5 }, (_, i) => `${origin}/many.json?n=${i}`);
    for (const id of ids) expect((await authorizeWith(id)).status).toBe(303);
    expect(await db().apiClient.count({ where: { id: { in: ids } } })).toBe(0);
    const { person } = await createPerson();
    await submitConsent({
      personId: person.id,
      params: authorizeParams(ids[0], redirectUri, pkcePair().challenge),
    });
    expect(await db().apiClient.count({ where: { id: { in: ids } } })).toBe(1);

    // Unused (its grants gone) and over a day old: purged; a revoked one and a used one stay.
    const dayAgo = new Date(Date.now() - 2 * 86_400_000);
    await db().apiClient.create({
      data: {
        id: `${origin}/many.json?n=unused`,
        name: "Unused",
        kind: "agent",
        scopes: [],
        metadata: { client_id_metadata_document: true },
        createdAt: dayAgo,
      },
    });
    await db().apiClient.create({
      data: {
        id: `${origin}/many.json?n=revoked`,
        name: "Revoked",
        kind: "agent",
        scopes: [],
        metadata: { client_id_metadata_document: true },
        createdAt: dayAgo,
        revokedAt: dayAgo,
      },
    });
    await db().apiClient.update({ where: { id: ids[0] }, data: { createdAt: dayAgo } });
    const { metadataClients } = await purgeExpiredRecords({ db: db(), now: new Date() });
    expect(metadataClients).toBe(1);
    expect(
      (
        await db().apiClient.findMany({
          where: { id: { startsWith: `${origin}/many.json` } },
          select: { id: true },
        })
      )
        .map(({ id }) => id)
        .sort(),
    ).toEqual([ids[0], `${origin}/many.json?n=revoked`]);
  });

  it("one address may make 10 document fetches a minute (429 page with Retry-After after that); cached documents and other addresses are served", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++)
      expect((await authorizeFrom(ip, `${origin}/missing.json?n=${i}`)).status).toBe(400);
    const limited = await authorizeFrom(ip, `${origin}/missing.json?n=10`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited.text()).toContain("Too many requests");
    expect((await authorizeFrom(ip, `${origin}/good.json`)).status).toBe(303); // cached by an earlier test: no fetch
    expect((await authorizeFrom(freshIp(), `${origin}/missing.json?n=10`)).status).toBe(400);
  });

  it("every GET /oauth/authorize counts per address: the 121st in a minute is a 429 page", async () => {
    const ip = freshIp();
    const clientId = `${origin}/good.json`;
    for (let i = 0; i < 120; i++) expect((await authorizeFrom(ip, clientId)).status).toBe(303);
    const limited = await authorizeFrom(ip, clientId);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await authorizeFrom(freshIp(), clientId)).status).toBe(303);
  }, 30_000);

  it("a failed fetch is remembered for a minute: asking again does not fetch again", async () => {
    forgetMetadataDocuments();
    flakyIsGood = false;
    const first = await authorizeWith(`${origin}/flaky.json`);
    expect(await first.text()).toContain("answered 500");
    flakyIsGood = true;
    const again = await authorizeWith(`${origin}/flaky.json`);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("answered 500");
    expect(hits.get("/flaky.json")).toBe(1);
    forgetMetadataDocuments();
    expect((await authorizeWith(`${origin}/flaky.json`)).status).toBe(303);
  });
});
