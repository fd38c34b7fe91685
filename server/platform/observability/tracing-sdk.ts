/**
 * The OpenTelemetry SDK, loaded only when tracing is on (./tracing.ts decides). Traces only: metrics
 * are prom-client's (/metrics) and logs pino's. What is traced:
 * - every HTTP request (the server span, named by its operation: "POST /api/v1/purchases"), with
 *   our request id and operation on it, from the request scope the front door opens;
 * - the tRPC procedure it calls (server/platform/trpc/init.ts) and each processor call
 *   (server/payments/traced-provider.ts), through `inSpan`;
 * - every SQL statement (instrumentation-pg): the statement text, never its parameters (values can
 *   be personal data), and only inside a trace (the index sync's polling makes none);
 * - outgoing HTTP (Stripe), inside a trace only.
 * Query string values are redacted from server spans (email links carry tokens there).
 */
import { type Attributes, context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { core, NodeSDK, resources } from "@opentelemetry/sdk-node";
import type { IncomingMessage } from "node:http";
import { type RequestScope, watchRequestScopes } from "./request-scope";

/** Attribute names of ours on the server span (and the procedure span). */
const traceAttributes = {
  requestId: "shopping.request_id",
  operation: "shopping.operation",
  clientId: "shopping.client_id",
} as const;

/** Paths polled by load balancers and Prometheus: no trace for each probe. */
const probePaths = new Set(["/healthz", "/readyz", "/metrics"]);

/** The query with every value replaced: names stay readable, tokens and search words do not leave. */
const redactedQuery = (url: string | undefined) => {
  const query = url?.split("?")[1];
  if (query === undefined) return undefined;
  const params = new URLSearchParams(query);
  return [...params.keys()].map((name) => `${name}=REDACTED`).join("&");
};

/** An operation id of the table ("POST /api/v1/purchases/{id}") names the span and gives the route. */
const operationRoute = /^[A-Z]+ (\/api\/v1\/\S*)$/;

const spanOfScope = new WeakMap<RequestScope, { span: Span; rpc?: { route?: string } }>();

const followRequestScopes = () =>
  watchRequestScopes({
    opened: (scope) => {
      const active = context.active();
      const span = trace.getSpan(active);
      if (!span) return;
      span.setAttribute(traceAttributes.requestId, scope.requestId);
      const rpc = core.getRPCMetadata(active);
      spanOfScope.set(scope, { span, rpc: rpc?.type === core.RPCType.HTTP ? rpc : undefined });
    },
    noted: (scope) => {
      const server = spanOfScope.get(scope);
      if (!server) return;
      if (scope.clientId) server.span.setAttribute(traceAttributes.clientId, scope.clientId);
      if (!scope.operationId) return;
      server.span.setAttribute(traceAttributes.operation, scope.operationId);
      const route = operationRoute.exec(scope.operationId)?.[1];
      // The http instrumentation names the span "METHOD route" and sets http.route when it ends.
      if (route && server.rpc) server.rpc.route = route;
    },
  });

/** What the work inside a span may add to it once it knows more (an error code). */
export type NoteOnSpan = (attributes: Attributes) => void;

const runInSpan = <T>(
  name: string,
  attributes: Attributes,
  run: (note: NoteOnSpan) => Promise<T>,
) =>
  trace.getTracer("shopping-api").startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await run((more) => span.setAttributes(more));
    } catch (error) {
      // The name only: a message can quote input.
      const type = error instanceof Error ? error.name : "Error";
      span.setAttribute("error.type", type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      throw error;
    } finally {
      span.end();
    }
  });

/** Another protocol than http/json asked for by the standard variables: the SDK builds that exporter itself. */
const protocolChosen = () =>
  Boolean(
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    process.env.OTEL_TRACES_EXPORTER,
  );

export const startSdk = (options: { serviceName: string; serviceEnv: string }) => {
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    // OTEL_RESOURCE_ATTRIBUTES and the host and process detectors add to it.
    resource: resources
      .defaultResource()
      .merge(
        resources.resourceFromAttributes({ "deployment.environment.name": options.serviceEnv }),
      ),
    traceExporter: protocolChosen() ? undefined : new OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => probePaths.has((request.url ?? "").split("?")[0]),
        startIncomingSpanHook: (request) => {
          const query = redactedQuery((request as IncomingMessage).url);
          return query === undefined ? {} : { "url.query": query };
        },
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  followRequestScopes();
  return { runInSpan, stop: () => sdk.shutdown() };
};
