/**
 * /api/trpc: the browser's way to the dashboard procedures (server/edges/trpc/dashboard.ts), never the
 * whole app router. The actor comes from the next-auth session cookie only; a bearer token is
 * ignored, so an app's token reaches nothing here. Cross-site request forgery is refused before
 * anything runs: a POST must carry `Content-Type: application/json` (415 otherwise; a cross-site
 * form can only send form or text types) and an Origin equal to PUBLIC_URL's (403 otherwise).
 * tRPC itself admits GET only for queries and POST only for mutations (405). Bodies are capped.
 * Refusals use tRPC's error shape with our code, as the procedures' errors do.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { personIdFromRequest } from "../../auth";
import { env } from "../../platform/env";
import { AppError, errorTable, type ErrorCode } from "../../core/errors";
import { createInnerContext } from "../../platform/trpc/context";
import { dashboardRouter } from "../trpc/dashboard";
import { BodyTooLargeError, readCappedBytes } from "../../platform/http/read-body";
import { clientRequestIdOf, requestIdFrom } from "../../platform/http/request-id";
import { toAppError } from "../../platform/http/respond";

/** The dashboard's inputs are a few short fields. */
const maxTrpcBodyBytes = 16 * 1024;

const refuse = (code: ErrorCode, message: string, headers: Record<string, string> = {}) => {
  const { status, trpc } = errorTable[code];
  const body = {
    error: { message, code: TRPC_ERROR_CODES_BY_KEY[trpc], data: { code, httpStatus: status } },
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
};

const isJson = (request: Request) =>
  (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase() ===
  "application/json";

const isOwnOrigin = (request: Request) =>
  request.headers.get("origin") === new URL(env().PUBLIC_URL).origin;

/** The POST's CSRF checks and its body, read once within the cap; a Response when refused. */
const checkedPost = async (request: Request): Promise<Request | Response> => {
  if (!isJson(request))
    return refuse(
      "unsupported_media_type",
      "Send the body as JSON (Content-Type: application/json).",
    );
  if (!isOwnOrigin(request))
    return refuse("forbidden", "This request must come from the service's own pages.");
  try {
    const body = await readCappedBytes(request, maxTrpcBodyBytes);
    // readCappedBytes concatenates into a fresh ArrayBuffer-backed buffer.
    return new Request(request.url, {
      method: "POST",
      headers: request.headers,
      body: body as Uint8Array<ArrayBuffer>,
    });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuse("payload_too_large", error.message);
    throw error;
  }
};

/** Handles GET (queries) and POST (mutations) under /api/trpc; one call per request (the client sends no batches). */
export const handleTrpcRequest = async (request: Request): Promise<Response> => {
  if (request.method !== "GET" && request.method !== "POST")
    return refuse("method_not_allowed", "Use GET for queries and POST for mutations.", {
      Allow: "GET, POST",
    });
  const checked = request.method === "POST" ? await checkedPost(request) : request;
  if (checked instanceof Response) return checked;
  // The front door already assigned the id and wrote it on the request (server/platform/http/request-id.ts).
  const requestId = requestIdFrom(request.headers.get("x-request-id"));
  let unexpected: unknown;
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: checked,
    router: dashboardRouter,
    allowBatching: false,
    createContext: async () => {
      const personId = await personIdFromRequest(checked);
      return createInnerContext({
        requestId,
        clientRequestId: clientRequestIdOf(request.headers),
        actor: personId ? { kind: "person", personId } : { kind: "anonymous" },
      });
    },
    onError: ({ error }) => {
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError))
        unexpected = error;
    },
  });
  if (unexpected === undefined) return response;
  // Never show the browser an internal message: log it under the request id, answer 500 (or 503 on a database outage).
  const appError = toAppError(unexpected, requestId, clientRequestIdOf(request.headers));
  return refuse(
    appError.code,
    appError.message,
    appError.options.retryAfter ? { "Retry-After": String(appError.options.retryAfter) } : {},
  );
};
