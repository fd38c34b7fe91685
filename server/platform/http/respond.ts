/** Turns anything thrown below the edge into the shared error body and status. */
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { isDatabaseUnavailable } from "../db";
import { AppError, errorBody } from "../../core/errors";
import { zodFields } from "../../core/zod-fields";
import { logger } from "../observability/log";
import { currentRequestScope } from "../observability/request-scope";

/**
 * Unwraps tRPC's wrapper and classifies the error as an AppError; an unexpected one is logged once
 * with its stack: on the request's own log line when a request is being served (the front door
 * writes it when the response ends), else at once under the request id when given, with the
 * caller's own X-Request-Id beside it as client_request_id (server/platform/http/request-id.ts).
 * An AppError (an ordinary refusal) is not logged here: the request line says its status.
 */
export const toAppError = (
  error: unknown,
  requestId?: string,
  clientRequestId?: string,
): AppError => {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof AppError) return cause;
  if (cause instanceof ZodError)
    return new AppError("invalid_request", { fields: zodFields(cause) });
  if (isDatabaseUnavailable(cause) || isDatabaseUnavailable(error))
    return new AppError("unavailable", { retryAfter: 5 });
  const scope = currentRequestScope();
  const reference = requestId ?? scope?.requestId ?? randomUUID();
  if (scope && scope.requestId === reference) scope.error ??= error;
  else
    logger.error(
      { err: error, request_id: reference, client_request_id: clientRequestId },
      "unexpected error",
    );
  return new AppError("internal_error", {
    message: `Something went wrong on our side (reference ${reference}).`,
  });
};

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });

export const errorResponse = (error: AppError, headers: Record<string, string> = {}) =>
  json(errorBody(error), error.status, {
    ...headers,
    ...(error.options.retryAfter ? { "Retry-After": String(error.options.retryAfter) } : {}),
    ...error.options.headers,
  });
