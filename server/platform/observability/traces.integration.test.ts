/**
 * Traces end to end (docs/adr/0113-traces.md): the API as a real process with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver run here (exporter-trace-otlp-http
 * posts JSON to /v1/traces). One REST purchase makes one trace: the server span, named by its
 * operation and carrying the response's X-Request-Id, the procedure under it, SQL and the
 * processor's authorize under the procedure; no token, card number or SQL parameter value in any
 * span. An MCP tool call makes a server span over its procedure; a charge the sweep thread makes is
 * a trace of its own, and its polls make none. Without the endpoint the SDK is not even loaded.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createStore } from "../../../prisma/factories";
import { testCards } from "../../payments/sandbox-cards";
import { db } from "../db";
import { agentWithPerson, directItem, quoteOf } from "../../testing/agent-purchases";
import { type InstanceProcess, startInstanceProcess } from "../../testing/instance-process";

/** The receiver's port (this helper's range). */
const receiverPort = 4310;

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type WireSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: AnyValue }[];
};
type Span = Omit<WireSpan, "attributes"> & { attributes: Record<string, unknown> };
type Export = {
  resourceSpans: {
    resource: { attributes: WireSpan["attributes"] };
    scopeSpans: { spans: WireSpan[] }[];
  }[];
};

const valueOf = (value: AnyValue) => value.stringValue ?? value.intValue ?? value.boolValue;
const toSpan = (span: WireSpan): Span => ({
  ...span,
  attributes: Object.fromEntries(span.attributes.map(({ key, value }) => [key, valueOf(value)])),
});

const serverKind = 2;
const clientKind = 3;

/** Every export the API sent: the raw bodies (to search for secrets) and the spans. */
const received = { bodies: [] as string[], spans: [] as Span[], resources: [] as Export[] };
let receiver: Server;

const startReceiver = () =>
  new Promise<void>((resolve) => {
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        if (request.method === "POST" && request.url === "/v1/traces") {
          received.bodies.push(body);
          const parsed = JSON.parse(body) as Export;
          received.resources.push(parsed);
          for (const resource of parsed.resourceSpans)
            for (const scope of resource.scopeSpans)
              received.spans.push(...scope.spans.map(toSpan));
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    receiver.listen(receiverPort, "127.0.0.1", resolve);
  });

/** The API in its own process (server/testing/traced-api-instance.ts), on this file's database; it also announces whether the SDK module is loaded. */
const startApi = (settings: Record<string, string>) =>
  startInstanceProcess<{ otel: boolean }>("traced-api-instance.ts", settings);

/** Waits until the spans carrying `requestId` include one named `last` (spans arrive as they end, in batches). */
const traceOf = async (requestId: string, last: (span: Span) => boolean) => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const tagged = received.spans.filter(
      (span) => span.attributes["shopping.request_id"] === requestId,
    );
    const server = tagged.find((span) => span.kind === serverKind);
    if (server && received.spans.some((span) => span.traceId === server.traceId && last(span))) {
      // One more batch: the spans that ended with the last one.
      await new Promise((resolve) => setTimeout(resolve, 500));
      return {
        server,
        tagged: received.spans.filter(
          (span) => span.attributes["shopping.request_id"] === requestId,
        ),
        spans: received.spans.filter((span) => span.traceId === server.traceId),
      };
    }
    if (Date.now() > deadline) throw new Error(`no trace for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** True when `ancestor` is `span`'s parent, or its parent's, and so on. */
const isUnder = (spans: Span[], span: Span, ancestor: Span) => {
  const byId = new Map(spans.map((candidate) => [candidate.spanId, candidate]));
  for (let parent = byId.get(span.parentSpanId ?? ""); parent;) {
    if (parent.spanId === ancestor.spanId) return true;
    parent = byId.get(parent.parentSpanId ?? "");
  }
  return false;
};

const isPg = (span: Span) =>
  span.kind === clientKind &&
  (span.attributes["db.system.name"] ?? span.attributes["db.system"]) === "postgresql";

let api: InstanceProcess<{ otel: boolean }>;

beforeAll(async () => {
  await startReceiver();
  api = await startApi({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_SERVICE_NAME: "shopping-api-traces-test",
    TRACED_INSTANCE_SWEEP: "on",
  });
}, 60_000);

afterAll(async () => {
  if (api) await api.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("traces (OTEL_EXPORTER_OTLP_ENDPOINT set)", () => {
  it("a REST purchase is one trace: server span (request id, operation) > procedure > SQL and processor.authorize; no secret in any span", async () => {
    const { token } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const idempotencyKey = randomUUID();
    const response = await fetch(`${api.base}/api/v1/purchases`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "idempotency-key": idempotencyKey,
      },
      body: JSON.stringify({ quote_id: quote.quote_id }),
    });
    const body = (await response.json()) as { purchase_id: string; status: string };
    expect([response.status, body.status]).toEqual([201, "held"]);
    const requestId = response.headers.get("x-request-id")!;

    const { server, tagged, spans } = await traceOf(requestId, (span) =>
      span.name.startsWith("processor."),
    );
    // Everything that carries the request id is in one trace.
    expect(new Set(tagged.map((span) => span.traceId)).size).toBe(1);
    expect(server.name).toBe("POST /api/v1/purchases");
    expect(server.attributes).toMatchObject({
      "shopping.request_id": requestId,
      "shopping.operation": "POST /api/v1/purchases",
      "http.route": "/api/v1/purchases",
    });
    const procedure = spans.find((span) => span.name === "procedure purchases.create")!;
    expect(procedure).toBeDefined();
    expect(isUnder(spans, procedure, server)).toBe(true);
    expect(procedure.attributes["shopping.request_id"]).toBe(requestId);

    const pgSpans = spans.filter(isPg);
    const sqlInProcedure = pgSpans.filter((span) => isUnder(spans, span, procedure));
    expect(sqlInProcedure.length).toBeGreaterThan(2);
    // The edge's own statements (the token, the lifecycle) are under the server span, outside the procedure.
    expect(pgSpans.every((span) => isUnder(spans, span, server))).toBe(true);

    const authorize = spans.find((span) => span.name === "processor.authorize")!;
    expect(authorize).toBeDefined();
    expect(isUnder(spans, authorize, procedure)).toBe(true);
    expect(authorize.attributes).toMatchObject({
      "shopping.processor": "sandbox",
      "shopping.idempotency_key": `${body.purchase_id}:authorize`,
    });
    // The sandbox processor's ledger statements nest under its call.
    expect(pgSpans.some((span) => isUnder(spans, span, authorize))).toBe(true);

    // The statement text is there, with placeholders; no value of the request reaches any span.
    const statements = sqlInProcedure.map((span) =>
      String(span.attributes["db.query.text"] ?? span.attributes["db.statement"] ?? ""),
    );
    expect(statements.some((text) => /\$1/.test(text))).toBe(true);
    const everything = received.bodies.join("\n");
    for (const secret of [token, testCards.succeeds, idempotencyKey, quote.quote_id])
      expect(everything).not.toContain(secret);
    const resource = received.resources[0].resourceSpans[0].resource.attributes;
    expect(resource).toContainEqual({
      key: "service.name",
      value: { stringValue: "shopping-api-traces-test" },
    });
  }, 60_000);

  it("an MCP tool call: server span > procedure span", async () => {
    const item = await createItem({ storeId: (await createStore()).id, priceCents: 4200 });
    const response = await fetch(`${api.base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_product", arguments: { id: item.id } },
      }),
    });
    const answer = (await response.json()) as { result: { isError?: boolean } };
    expect([response.status, answer.result.isError ?? false]).toEqual([200, false]);
    const requestId = response.headers.get("x-request-id")!;
    const { server, spans } = await traceOf(
      requestId,
      (span) => span.name === "procedure catalog.getProduct",
    );
    const procedure = spans.find((span) => span.name === "procedure catalog.getProduct")!;
    expect(isUnder(spans, procedure, server)).toBe(true);
    expect(server.attributes["shopping.request_id"]).toBe(requestId);
    expect(spans.filter(isPg).some((span) => isUnder(spans, span, procedure))).toBe(true);
  }, 60_000);

  it("the sweep thread: a purchase's charge is a trace of its own (processor call at its root); its polls make none", async () => {
    const { token } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const response = await fetch(`${api.base}/api/v1/purchases`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "idempotency-key": randomUUID(),
      },
      body: JSON.stringify({ quote_id: quote.quote_id }),
    });
    const { purchase_id: id } = (await response.json()) as { purchase_id: string };
    expect(response.status).toBe(201);
    // Its charge time comes now; the sweep's charge-purchases (every 5 s) charges it, or cancels it
    // if the copy email is not out yet: a capture or a release at the processor either way.
    await db().purchase.update({ where: { id }, data: { chargesAt: new Date(Date.now() - 1000) } });
    const isCharge = (span: Span) =>
      /^processor\.(capture|release)$/.test(span.name) &&
      String(span.attributes["shopping.idempotency_key"]).startsWith(`${id}:`);
    const deadline = Date.now() + 30_000;
    while (!received.spans.some(isCharge) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const charge = received.spans.find(isCharge)!;
    expect(charge).toBeDefined();
    expect(charge.parentSpanId ?? "").toBe("");
    const inTrace = received.spans.filter((span) => span.traceId === charge.traceId);
    expect(inTrace.filter(isPg).length).toBeGreaterThan(0);
    // Every root is a request or a processor call: no statement of a poll starts a trace.
    const roots = received.spans.filter((span) => !span.parentSpanId);
    expect(
      roots.filter((span) => span.kind !== serverKind && !span.name.startsWith("processor.")),
    ).toEqual([]);
  }, 60_000);

  it("the SDK is loaded", () => {
    expect(api.announced.otel).toBe(true);
  });
});

describe("without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("nothing of the SDK is loaded and nothing is sent", async () => {
    // The SDK's own per-signal variable points at the receiver: were the SDK loaded anyway, its spans would arrive there.
    const plain = await startApi({
      OTEL_EXPORTER_OTLP_ENDPOINT: "",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${receiverPort}/v1/traces`,
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    try {
      expect(plain.announced.otel).toBe(false);
      const response = await fetch(`${plain.base}/api/v1/categories`);
      expect(response.headers.get("x-request-id")).toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await plain.stop();
    }
    // Its spans would carry the default service name.
    const names = received.resources.flatMap((sent) =>
      sent.resourceSpans.flatMap((resource) =>
        resource.resource.attributes.filter((attribute) => attribute.key === "service.name"),
      ),
    );
    expect(names.map((attribute) => attribute.value.stringValue)).not.toContain("shopping-api");
  }, 60_000);
});
