/**
 * One request id per request. The outer node:http listener (server/http/front-door.ts) assigns it
 * before Next or the lean API layer sees the request: a well-formed incoming X-Request-Id is kept,
 * anything else is replaced by a new UUID. The id is written back onto the request's headers, so
 * route handlers (withPartner) read the same id, and onto the response, so every answer carries it.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** A client's id is kept when it is 1 to 128 characters of [A-Za-z0-9._-] (two headers arrive joined by ", " and fail). */
export const requestIdPattern = /^[A-Za-z0-9._-]{1,128}$/;

export const requestIdFrom = (incoming: string | null | undefined): string => (incoming && requestIdPattern.test(incoming) ? incoming : randomUUID());

/**
 * Assigns the request's id (idempotent: a second call keeps the first id) and returns it. With a
 * response, the id is also set on it, for answers written by others (Next); the lean layer writes
 * it itself when it finishes a response.
 */
export const assignRequestId = (request: IncomingMessage, response?: ServerResponse): string => {
  const incoming = request.headers["x-request-id"];
  const id = requestIdFrom(typeof incoming === "string" ? incoming : undefined);
  request.headers["x-request-id"] = id;
  if (response && !response.headersSent) response.setHeader("X-Request-Id", id);
  return id;
};
