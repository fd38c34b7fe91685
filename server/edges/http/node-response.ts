/**
 * The one place where the node:http front door and the lean API layer finish a response: status,
 * the site's security headers, X-Request-Id, Content-Length and body. `send` writes a standard
 * Response (what route handlers return); `answerOnSocket` writes the same shape straight to a socket
 * for requests node's parser refused, where there is no ServerResponse.
 */
import { STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type AppError, errorBody } from "../../core/errors";
import { errorResponse } from "../../platform/http/respond";
import { securityHeaders } from "./security-headers.mjs";

type Headers = Record<string, string | string[]>;

/** The headers every answer carries, lower-cased, under the given ones. */
const withSiteHeaders = (requestId: string, headers: Headers): Headers => {
  const result: Headers = {};
  for (const { key, value } of securityHeaders) result[key.toLowerCase()] = value;
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  result["x-request-id"] = requestId;
  return result;
};

const hasNoBody = (status: number) => status === 204 || status === 304;

/** Writes status, headers and body; a response already under way is cut off instead (its status is gone). */
const finish = (
  to: ServerResponse,
  requestId: string,
  status: number,
  headers: Headers,
  body?: Buffer,
) => {
  if (to.headersSent) {
    to.destroy();
    return;
  }
  const all = withSiteHeaders(requestId, headers);
  if (hasNoBody(status)) delete all["content-length"];
  else all["content-length"] = String(body?.length ?? 0);
  to.writeHead(status, all);
  to.end(hasNoBody(status) ? undefined : body);
};

/** Sends a standard Response (a route handler's answer) on a node ServerResponse. HEAD answers drop the body (node does). */
export const send = async (response: Response, to: ServerResponse, requestId: string) => {
  const headers: Headers = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  finish(to, requestId, response.status, headers, body);
};

/** Sends the shared error body for `error` (server/platform/http/respond.ts). */
export const sendError = (
  to: ServerResponse,
  requestId: string,
  error: AppError,
  headers: Record<string, string> = {},
) => send(errorResponse(error, headers), to, requestId);

/** Sends a redirect the way Next does (Location and Refresh, the target as the body). */
export const sendRedirect = (to: ServerResponse, requestId: string, location: string) =>
  finish(
    to,
    requestId,
    308,
    { location, refresh: `0;url=${location}`, "content-type": "text/plain; charset=utf-8" },
    Buffer.from(location),
  );

/**
 * Answers on a raw socket with the shared error body and closes it: for requests node's parser refused
 * (clientError) or CONNECT. Nothing is written when a response on that socket has already started.
 */
export const answerOnSocket = (socket: Duplex, requestId: string, error: AppError) => {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const body = Buffer.from(JSON.stringify(errorBody(error)));
  const headers = withSiteHeaders(requestId, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(body.length),
    connection: "close",
  });
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}`);
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ""}\r\n${head.join("\r\n")}\r\n\r\n`,
        "latin1",
      ),
      body,
    ]),
  );
};
