/**
 * The request's log line and metrics, written when its response ends (the front door calls
 * `recordWhenDone` for every request). What the line holds comes from the request scope
 * (server/platform/observability/request-scope.ts): the id, the operation, the client and person
 * when known; plus method, the path WITHOUT its query string (cancel and email links carry their
 * token there), status and duration. Never a header, a query string or a body
 * (docs/adr/0112-structured-logs-and-metrics.md). Probes that balancers poll log at debug.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { clientRequestIdOfNode } from "../../platform/http/request-id";
import { logger } from "../../platform/observability/log";
import { count, observe } from "../../platform/observability/metrics";
import type { RequestScope } from "../../platform/observability/request-scope";

/** Coarse operation names of everything that is not an /api/v1 operation, by path prefix (first match). */
const coarseOperations: [prefix: string, operation: string][] = [
  ["/api/trpc/", "trpc"],
  ["/api/inngest", "inngest"],
  ["/api/", "other"],
  ["/mcp", "mcp"],
  ["/oauth/", "oauth"],
  ["/.well-known/", "oauth"],
  ["/stripe/webhook", "stripe_webhook"],
  ["/healthz", "probe"],
  ["/readyz", "probe"],
  ["/metrics", "metrics"],
  ["/_next/", "static"],
];

/** The path's operation label: a bounded set of names, never the path itself (label cardinality). */
export const coarseOperation = (path: string) => {
  for (const [prefix, operation] of coarseOperations)
    if (path === prefix.replace(/\/$/, "") || path.startsWith(prefix)) return operation;
  return /\.[a-z0-9]{2,5}$/i.test(path) ? "static" : "page";
};

/** The target's path, without query and fragment, cut to 200 characters. */
const pathOf = (url: string | undefined) => (url ?? "").split(/[?#]/, 1)[0].slice(0, 200);

const levelOf = (status: number, operation: string, error: unknown) =>
  error !== undefined || status >= 500 ? "error" : operation === "probe" ? "debug" : "info";

/** Logs the request and moves its metrics once its response has ended (finished or cut off). */
export const recordWhenDone = (
  request: IncomingMessage,
  response: ServerResponse,
  scope: RequestScope,
  startedAt: number,
) => {
  response.once("close", () => {
    const seconds = (performance.now() - startedAt) / 1000;
    const path = pathOf(request.url);
    const operation = scope.operationId ?? coarseOperation(path);
    // A response cut off before it was written whole (the client left, or a write failed) has no status the client saw.
    const status = response.writableFinished ? String(response.statusCode) : "aborted";
    count("shopping_http_requests_total", {
      operation,
      method: request.method ?? "GET",
      status,
    });
    observe("shopping_http_request_duration_seconds", seconds, { operation });
    const level = levelOf(response.statusCode, operation, scope.error);
    if (!logger.isLevelEnabled(level)) return;
    logger[level](
      {
        request_id: scope.requestId,
        client_request_id: clientRequestIdOfNode(request),
        operation,
        method: request.method,
        path,
        status: response.writableFinished ? response.statusCode : undefined,
        aborted: response.writableFinished ? undefined : true,
        duration_ms: Math.round(seconds * 10_000) / 10,
        client_id: scope.clientId,
        person_id: scope.personId,
        err: scope.error,
      },
      "request",
    );
  });
};
