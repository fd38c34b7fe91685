/**
 * The node:http server in front of everything `npm start` serves. Each request gets its id first
 * (server/platform/http/request-id.ts), so pages and every answer of Next carry X-Request-Id too; then the
 * lean API layer answers it or hands it to Next (the probes, /healthz and /readyz, answer before it). Requests node's own parser refuses (bad request
 * line or headers, header block over 16 KiB, timeouts), CONNECT, and an Expect other than
 * 100-continue are answered here in the shared JSON error shape instead of node's bare replies.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { AppError, type ErrorCode } from "../../core/errors";
import { socketAddressHeader } from "../../platform/http/client-ip";
import { answerOnSocket, sendError } from "./node-response";
import { assignRequestId, clientRequestIdOfNode } from "../../platform/http/request-id";
import { decodePath, splitTarget } from "./request-target";
import { toAppError } from "../../platform/http/respond";
import { openRequestScope } from "../../platform/observability/request-scope";
import { serveMetrics } from "./metrics-endpoint";
import { recordWhenDone } from "./request-telemetry";

type Handlers = {
  /** Answers /healthz and /readyz before anything else (server/edges/http/probes.ts); returns false for the rest. */
  probes?: (request: IncomingMessage, response: ServerResponse, requestId: string) => boolean;
  /** Answers the request and returns true, or returns false to hand it to `next`. */
  api: (request: IncomingMessage, response: ServerResponse) => boolean;
  next: (request: IncomingMessage, response: ServerResponse) => Promise<unknown> | unknown;
};

/** node's statuses for its own refusals (lib/_http_server.js), as codes of the AppError table. */
const clientErrors: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    "request_header_fields_too_large",
    "The request line and headers exceed 16 KiB.",
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: ["payload_too_large", "The chunk extensions are too large."],
  ERR_HTTP_REQUEST_TIMEOUT: ["request_timeout", "The request did not arrive in time."],
};
const clientError = (code: string | undefined) => {
  const [errorCode, message] = clientErrors[code ?? ""] ?? [
    "bad_request",
    "The request could not be read as HTTP/1.1.",
  ];
  return new AppError(errorCode, { message });
};

/**
 * How long a request may take to arrive: its headers, then all of it with its body. Node's defaults
 * (60 s and 300 s) let a client that stalls mid-body hold a connection for five minutes; every body
 * here is capped at a few hundred KiB, which arrives in well under a second. A request still
 * arriving is answered 408 within `checkEveryMs` of its deadline.
 */
export const arrivalDeadlines = { headersMs: 20_000, requestMs: 30_000, checkEveryMs: 5_000 };

export const createFrontServer = (handlers: Handlers, deadlines = arrivalDeadlines) => {
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const startedAt = performance.now();
    const requestId = assignRequestId(request);
    // The request's log line and metrics, when its response ends (request-telemetry.ts).
    recordWhenDone(
      request,
      response,
      openRequestScope(requestId, () => serve(request, response, requestId)),
      startedAt,
    );
  };
  const serve = (request: IncomingMessage, response: ServerResponse, requestId: string) => {
    if (handlers.probes?.(request, response, requestId)) return;
    // The one trusted source of the client's address (server/platform/http/client-ip.ts); a client's own value is overwritten.
    request.headers[socketAddressHeader] = request.socket.remoteAddress ?? "unknown";
    const fail = (error: unknown) =>
      sendError(
        response,
        requestId,
        toAppError(error, requestId, clientRequestIdOfNode(request)),
      ).catch(() => response.destroy());
    try {
      // Before the API: no partner token, no rate limit (metrics-endpoint.ts has its own token).
      if (serveMetrics(request, response, requestId)) return;
      if (handlers.api(request, response)) return;
      // Next answers a path it cannot decode with a bare 500; its query parsing is lenient, so only the path is checked.
      decodePath(splitTarget(request.url ?? "").pathname);
      assignRequestId(request, response);
      Promise.resolve(handlers.next(request, response)).catch(fail);
    } catch (error) {
      void fail(error);
    }
  };
  // Keep idle connections for 65 s (node's default is 5 s): a client that pauses between calls (or
  // whose event loop was busy) reused a socket the server had just closed and saw "other side closed".
  // Longer than the 60 s idle timeout of common load balancers and client pools, as their docs advise.
  const server = createServer(
    {
      keepAliveTimeout: 65_000,
      headersTimeout: deadlines.headersMs,
      requestTimeout: deadlines.requestMs,
      connectionsCheckingInterval: deadlines.checkEveryMs,
    },
    listener,
  );
  // RFC 9110 lets a server ignore an Expect it does not support; node would answer a bare 417.
  server.on("checkExpectation", listener);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET") socket.destroy();
    else answerOnSocket(socket, randomUUID(), clientError(error.code));
  });
  server.on("connect", (request: IncomingMessage, socket: Duplex) =>
    answerOnSocket(
      socket,
      assignRequestId(request),
      new AppError("bad_request", { message: "CONNECT is not supported: this is not a proxy." }),
    ),
  );
  return server;
};
