/**
 * The front door gives every request one id (pages and Next's answers included) and answers what
 * node's parser refuses in the shared JSON shape. Next is a stand-in here; the lean layer says no.
 */
import type { Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogLines } from "../../testing/log-capture";
import { rawRequest, rawRequestBytes } from "../../testing/raw-http";
import { createFrontServer } from "./front-door";

let server: Server;
let port: number;
const seenByNext: (string | undefined)[] = [];
const clientIdsSeenByNext: (string | undefined)[] = [];

beforeAll(async () => {
  server = createFrontServer({
    api: () => false,
    next: async (request, response) => {
      if (request.url === "/broken") throw new Error("next failed");
      seenByNext.push(request.headers["x-request-id"] as string | undefined);
      clientIdsSeenByNext.push(request.headers["x-client-request-id"] as string | undefined);
      response.writeHead(200, { "content-type": "text/html" }).end("<p>page</p>");
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const errorCode = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;

describe("front door", () => {
  it("puts one X-Request-Id on what Next answers, the same id Next's handlers read; always ours, the caller's recorded beside it (I2)", async () => {
    const page = await rawRequest(port, rawRequestBytes("GET", "/account"));
    expect(page.status).toBe(200);
    expect(page.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seenByNext.at(-1)).toBe(page.headers["x-request-id"]);
    expect(clientIdsSeenByNext.at(-1)).toBeUndefined();
    const theirs = await rawRequest(
      port,
      rawRequestBytes("GET", "/", [["X-Request-Id", "trace.42_a-b"]]),
    );
    expect(theirs.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seenByNext.at(-1)).toBe(theirs.headers["x-request-id"]);
    expect(clientIdsSeenByNext.at(-1)).toBe("trace.42_a-b");
    // A caller cannot plant the internal header either.
    const planted = await rawRequest(
      port,
      rawRequestBytes("GET", "/", [
        ["X-Client-Request-Id", "forged"],
        ["X-Request-Id", "bad id"],
      ]),
    );
    expect(planted.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(clientIdsSeenByNext.at(-1)).toBeUndefined();
    const twice = await rawRequest(
      port,
      rawRequestBytes("GET", "/", [
        ["X-Request-Id", "a"],
        ["X-Request-Id", "b"],
      ]),
    );
    expect(twice.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs a fault under our id with the caller's id beside it as client_request_id (I2)", async () => {
    const logs = captureLogLines();
    const response = await rawRequest(
      port,
      rawRequestBytes("GET", "/broken", [["X-Request-Id", "their-ref-7"]]),
    );
    expect(response.status).toBe(500);
    const ours = response.headers["x-request-id"];
    expect(ours).toMatch(/^[0-9a-f-]{36}$/);
    const line = await logs.find((candidate) => candidate.request_id === ours);
    expect(line).toMatchObject({
      level: "error",
      status: 500,
      client_request_id: "their-ref-7",
      err: { message: "next failed" },
    });
  });

  it("keeps an idle connection open longer than node's 5 s default, and says so in Keep-Alive", async () => {
    const first = await fetch(`http://127.0.0.1:${port}/`);
    expect(first.headers.get("keep-alive")).toBe("timeout=65");
    await first.text();
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const reused = await fetch(`http://127.0.0.1:${port}/`);
    expect(reused.status).toBe(200);
    await reused.text();
  }, 15_000);

  it("answers requests node's parser refuses with the JSON error shape and X-Request-Id", async () => {
    const cases: [Buffer, number, string][] = [
      [Buffer.from("GARBAGE\r\n\r\n"), 400, "bad_request"],
      [rawRequestBytes("get", "/api/v1/products"), 400, "bad_request"],
      [Buffer.from("GET /a\0b HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"), 400, "bad_request"],
      [
        rawRequestBytes("GET", "/", [["X-Big", "x".repeat(20_000)]]),
        431,
        "request_header_fields_too_large",
      ],
      [rawRequestBytes("GET", "/", [["Bad Name", "x"]]), 400, "bad_request"],
      [rawRequestBytes("CONNECT", "example.com:443"), 400, "bad_request"],
    ];
    for (const [request, status, code] of cases) {
      const response = await rawRequest(port, request);
      expect(response.status, request.toString("latin1").slice(0, 30)).toBe(status);
      expect(errorCode(response.body)).toBe(code);
      expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers["x-frame-options"]).toBe("DENY");
    }
  });

  it("refuses with a JSON 400, before Next, a path it cannot decode (Next answers a bare 500) or a target that is not a path", async () => {
    for (const target of ["/account/%E0%A4%A", "/%00", "http://evil.example/account", "*"]) {
      const response = await rawRequest(
        port,
        rawRequestBytes(target === "*" ? "OPTIONS" : "GET", target),
      );
      expect(response.status, target).toBe(400);
      expect(errorCode(response.body)).toBe("bad_request");
    }
    expect((await rawRequest(port, rawRequestBytes("GET", "/account?next=%"))).status).toBe(200);
  });

  it("serves a request with an Expect it does not know instead of node's bare 417", async () => {
    expect(
      (await rawRequest(port, rawRequestBytes("GET", "/", [["Expect", "something"]]))).status,
    ).toBe(200);
  });

  it("answers a JSON 500 with the request id when Next's handler fails", async () => {
    const logs = captureLogLines();
    const response = await rawRequest(port, rawRequestBytes("GET", "/broken"));
    expect(response.status).toBe(500);
    expect(errorCode(response.body)).toBe("internal_error");
    const line = await logs.find((candidate) => candidate.err !== undefined);
    expect(line?.request_id).toBe(response.headers["x-request-id"]);
    // Logged once, on the request's own line, with the stack.
    expect((line?.err as { stack?: string }).stack).toMatch(/\n\s+at /);
    expect(logs.lines.filter((candidate) => candidate.err !== undefined)).toHaveLength(1);
  });

  it("answers 408 in the JSON shape to a request that stalls mid-body or mid-headers, within its deadline", async () => {
    const slow = createFrontServer(
      {
        api: () => false,
        // Reads the whole body first, as every handler here does.
        next: (request, response) => void request.resume().on("end", () => response.end("read")),
      },
      { headersMs: 600, requestMs: 1_000, checkEveryMs: 100 },
    );
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const slowPort = (slow.address() as AddressInfo).port;
    try {
      const stalled = async (bytes: string) => {
        const startedAt = Date.now();
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(slowPort, "127.0.0.1", () => socket.write(bytes));
          let received = "";
          socket.on("data", (chunk) => (received += chunk.toString()));
          socket.on("close", () => resolve(received));
          socket.on("error", reject);
        });
        return { answer, ms: Date.now() - startedAt };
      };
      const midBody = await stalled(
        'POST /api/v1/checkout/quotes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"items":',
      );
      const midHeaders = await stalled("GET /products HTTP/1.1\r\nHost: x\r\nX-Slow: ");
      for (const { answer, ms } of [midBody, midHeaders]) {
        expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        expect(errorCode(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toBe("request_timeout");
        expect(ms).toBeLessThan(5_000);
      }
    } finally {
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it("keeps node's request deadlines short by default", () => {
    expect(server.requestTimeout).toBe(30_000);
    expect(server.headersTimeout).toBe(20_000);
  });
});
