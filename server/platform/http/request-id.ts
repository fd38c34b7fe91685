/**
 * One request id per request, always ours. The outer node:http listener (server/edges/http/front-door.ts)
 * assigns it before Next or the lean API layer sees the request: a new UUID every time, written
 * onto the request's headers (route handlers such as withPartner read the same id) and onto the
 * response (every answer carries it in X-Request-Id). A caller's own X-Request-Id never becomes
 * our log reference (issue 24 I2: a client could make two requests share a reference, or reuse a
 * reference from another partner's support ticket); when well-formed it is kept beside ours, in
 * the internal header `x-client-request-id`, and logged as `client_request_id` with any fault.
 * It is not echoed: the partner already knows what it sent, and our id is the one support needs.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** A client's id is recorded when it is 1 to 128 characters of [A-Za-z0-9._-] (two headers arrive joined by ", " and fail). */
export const requestIdPattern = /^[A-Za-z0-9._-]{1,128}$/;

/** Where the front door keeps the caller's own id (a caller's value of this header is overwritten). */
const clientRequestIdHeader = "x-client-request-id";

/** The id the front door wrote on the request; a new one when none is there (a handler called without the front door). */
export const requestIdFrom = (incoming: string | null | undefined): string =>
  incoming && requestIdPattern.test(incoming) ? incoming : randomUUID();

/** The caller's own X-Request-Id as the front door recorded it, for logs; undefined when none (or malformed). */
export const clientRequestIdOf = (headers: Headers): string | undefined =>
  headers.get(clientRequestIdHeader) ?? undefined;

const assigned = new WeakMap<IncomingMessage, string>();

/**
 * Assigns the request's id (idempotent: a second call on the same request keeps the first id) and
 * returns it. With a response, the id is also set on it, for answers written by others (Next); the
 * lean layer writes it itself when it finishes a response.
 */
export const assignRequestId = (request: IncomingMessage, response?: ServerResponse): string => {
  let id = assigned.get(request);
  if (id === undefined) {
    id = randomUUID();
    assigned.set(request, id);
    const incoming = request.headers["x-request-id"];
    if (typeof incoming === "string" && requestIdPattern.test(incoming))
      request.headers[clientRequestIdHeader] = incoming;
    else delete request.headers[clientRequestIdHeader];
    request.headers["x-request-id"] = id;
  }
  if (response && !response.headersSent) response.setHeader("X-Request-Id", id);
  return id;
};

/** The caller's id recorded on a node request, for logs. */
export const clientRequestIdOfNode = (request: IncomingMessage): string | undefined => {
  const value = request.headers[clientRequestIdHeader];
  return typeof value === "string" ? value : undefined;
};
