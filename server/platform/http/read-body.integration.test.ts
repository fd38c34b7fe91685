/**
 * Every body the service reads is capped: a 10 MB POST to /oauth/token, /oauth/revoke, the consent
 * POST, /oauth/register/agent or /api/auth/* is refused with 413 after at most the cap has been read, whether
 * it declares its length or streams it chunked, so one request cannot fill the heap. Sign-in
 * (next-auth's POST) likewise.
 */
import { describe, expect, it } from "vitest";
import { POST as tokenPost } from "@/app/oauth/token/route";
import { POST as revokePost } from "@/app/oauth/revoke/route";
import { POST as registerPost } from "@/app/oauth/register/agent/route";
import { POST as nextAuthPost } from "@/app/api/auth/[...nextauth]/route";
import { NextRequest } from "next/server";
import { handleConsentDecision } from "../../oauth/consent";

const tenMegabytes = 10 * 1024 * 1024;

/** A request whose body is generated on demand in 64 KiB chunks; `pulled()` says how much was read. */
const hugeRequest = (path: string, options: { type: string; declareLength: boolean }) => {
  let sent = 0;
  const chunk = new TextEncoder().encode("a=".padEnd(65_536, "b"));
  const body = new ReadableStream<Uint8Array>({
    pull: (controller) => {
      if (sent >= tenMegabytes) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const headers: Record<string, string> = { "content-type": options.type };
  if (options.declareLength) headers["content-length"] = String(tenMegabytes);
  const request = new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => sent };
};

const form = "application/x-www-form-urlencoded";
const endpoints = [
  {
    name: "POST /oauth/token",
    type: form,
    error: "invalid_request",
    call: (request: Request) => tokenPost(request),
  },
  {
    name: "POST /oauth/revoke",
    type: form,
    error: "invalid_request",
    call: (request: Request) => revokePost(request),
  },
  {
    name: "POST /oauth/register/agent",
    type: "application/json",
    error: "invalid_client_metadata",
    call: (request: Request) => registerPost(request),
  },
  {
    name: "POST /oauth/authorize (consent)",
    type: form,
    error: undefined,
    call: (request: Request) =>
      handleConsentDecision(request, { personId: "per_x", now: new Date() }),
  },
  {
    name: "POST /api/auth/callback/credentials (sign-in)",
    type: form,
    error: undefined,
    call: (request: Request) =>
      nextAuthPost(
        new NextRequest(request.url, {
          method: "POST",
          headers: request.headers,
          body: request.body,
          duplex: "half",
        } as never),
        { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) },
      ),
  },
];

describe("request bodies are capped", () => {
  for (const endpoint of endpoints) {
    for (const declareLength of [true, false]) {
      it(`${endpoint.name}, ${declareLength ? "with Content-Length" : "chunked"}: 413 without reading the body`, async () => {
        const { request, pulled } = hugeRequest("/oauth/x", { type: endpoint.type, declareLength });
        const heapBefore = process.memoryUsage().heapUsed;
        const started = performance.now();
        const response = await endpoint.call(request);
        expect(response.status).toBe(413);
        expect(performance.now() - started).toBeLessThan(1000);
        expect(pulled()).toBeLessThanOrEqual(256 * 1024);
        expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(4 * 1024 * 1024);
        if (endpoint.error) {
          expect(response.headers.get("cache-control")).toBe("no-store");
          expect((await response.json()).error).toBe(endpoint.error);
        }
      });
    }
  }
});
