/**
 * What a standing order (a price watch, an any-of group's alternative, a buying search watch) makes
 * of its purchase's failure, when buyQuote throws: another run of the same Idempotency-Key is buying
 * (`in_flight`: that run records the answer); a refusal that bought nothing (`refused`, with POST
 * /purchases' code: the order ends or waits by its own rules); anything else is a `fault` the caller
 * throws, so that the event is retried. `invalid_request` is a fault too: it means the request the
 * order built did not parse, not that the purchase was refused; so are a ZodError and the database
 * away (not refusals).
 */
import { TRPCError } from "@trpc/server";
import { AppError } from "../core/errors";

export type StandingOrderFailure =
  { kind: "in_flight" } | { kind: "refused"; code: string } | { kind: "fault" };

export const standingOrderFailure = (error: unknown): StandingOrderFailure => {
  // Read, not converted: toAppError would log an unknown error here, and the caller throws it on to
  // the processor, which logs it with the event.
  const cause = error instanceof TRPCError ? error.cause : error;
  if (!(cause instanceof AppError)) return { kind: "fault" };
  if (cause.code === "idempotency_key_in_use") return { kind: "in_flight" };
  if (cause.status < 500 && cause.code !== "invalid_request")
    return { kind: "refused", code: cause.code };
  return { kind: "fault" };
};
