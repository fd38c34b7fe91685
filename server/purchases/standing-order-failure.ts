/**
 * What a standing order (a price watch, an any-of group's alternative, a buying search watch) makes
 * of its purchase's failure, when buyQuote throws: another run of the same Idempotency-Key is buying
 * (`in_flight`: that run records the answer); a refusal that bought nothing (`refused`, with POST
 * /purchases' code: the order ends or waits by its own rules); anything else is a `fault` the caller
 * throws, so that the event is retried. `invalid_request` is a fault too: it means the request the
 * order built did not parse (a ZodError), not that the purchase was refused.
 */
import { AppError } from "../core/errors";
import { toAppError } from "../platform/http/respond";

export type StandingOrderFailure =
  { kind: "in_flight" } | { kind: "refused"; code: string } | { kind: "fault" };

export const standingOrderFailure = (error: unknown): StandingOrderFailure => {
  const appError = toAppError(error);
  if (appError.code === "idempotency_key_in_use") return { kind: "in_flight" };
  if (appError instanceof AppError && appError.status < 500 && appError.code !== "invalid_request")
    return { kind: "refused", code: appError.code };
  return { kind: "fault" };
};
