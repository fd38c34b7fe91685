/**
 * tRPC initialisation. The error formatter reads the one error table (server/core/errors.ts), so tRPC
 * clients see the same code and status as REST clients.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, errorTable } from "../../core/errors";
import type { Context } from "./context";
import type { Scope } from "../../core/scopes";
import { zodFields } from "../../core/zod-fields";
import { assertStorableInput } from "../../core/storable-text";
import { toAppError } from "../http/respond";
import { inSpan } from "../observability/tracing";

const procedureAttribute = "shopping.procedure";
const errorCodeAttribute = "shopping.error_code";
const requestIdAttribute = "shopping.request_id";

/**
 * Who may call a procedure: its contract, stated once in its meta (`procedure({...})`,
 * server/platform/trpc/procedures.ts) and checked once (server/platform/trpc/admission.ts). The
 * operation table reads it for the OpenAPI security, the 403 it documents and the MCP tool scopes.
 * - "partner": any access token of a client carrying `scope`, client credentials or one a person
 *   granted (jobs and ops, the system actor, pass too).
 * - "person": a token a person granted by linking their account, carrying `scope`; with
 *   `shopper: true` also the person signed in to the pages (their own data on the account pages).
 * - "assistant": a token a person granted to an assistant, carrying `scope` (an agent-only scope).
 *   Whether purchases are on for that assistant is the purchase use case's rule
 *   (agent_purchases_unavailable), not the token's.
 * - "client": any token of a client, whatever its scopes: what a client configures about itself
 *   (webhook endpoints); a linked token acts for its person too.
 * - "shopper": the person signed in to the pages.
 * - "public": anyone (a link in an email, the hosted checkout page, sign-up).
 */
/** One scope, or several of which any one admits (the first is the one an MCP connector asks for). */
export type Scopes = Scope | readonly [Scope, ...Scope[]];

/** The scopes of a `Scopes`, as a list. */
export const scopeList = (scopes: Scopes): readonly Scope[] =>
  typeof scopes === "string" ? [scopes] : scopes;

export type Meta =
  | { caller: "partner"; scope: Scope }
  | { caller: "person"; scope: Scopes; shopper?: true }
  | { caller: "assistant"; scope: Scopes }
  | { caller: "client" }
  | { caller: "shopper" }
  | { caller: "public" };

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter: ({ shape, error }) => {
      const cause = error.cause;
      if (cause instanceof AppError) {
        return {
          ...shape,
          message: cause.message,
          data: {
            ...shape.data,
            code: cause.code,
            httpStatus: cause.status,
            fields: cause.options.fields,
          },
        };
      }
      if (cause instanceof ZodError) {
        return {
          ...shape,
          data: {
            ...shape.data,
            code: "invalid_request",
            httpStatus: errorTable.invalid_request.status,
            fields: zodFields(cause),
          },
        };
      }
      return shape;
    },
  });

/**
 * Every procedure starts here.
 * - The raw input (a REST body or query as the edge parsed it, an MCP tool's arguments, a tRPC
 *   request, a page's call) may hold no NUL or other control character, no lone surrogate and no
 *   deep nesting (422 naming the field). One place, before any schema, because every edge reaches
 *   the database through a procedure (issue 24 L2).
 * - What a procedure throws leaves as a TRPCError whose code is the error table's (401 is
 *   UNAUTHORIZED, 404 NOT_FOUND), with the AppError as its cause: tRPC labelled every AppError
 *   INTERNAL_SERVER_ERROR, so a signed-out visit read like a fault in the logs (issue 24, section
 *   5). A real fault is logged here once, with its stack, under the request id (and the caller's
 *   own id beside it), and leaves as the internal_error AppError naming that reference, so the
 *   edges answer it without logging it again.
 */
export const baseProcedure = t.procedure.use(({ ctx, path, getRawInput, next }) =>
  // The trace's procedure span (docs/adr/0113-traces.md): its SQL and processor calls nest under it.
  inSpan(
    `procedure ${path}`,
    { [procedureAttribute]: path, [requestIdAttribute]: ctx.requestId },
    async (note) => {
      assertStorableInput(await getRawInput());
      const result = await next();
      if (result.ok) return result;
      const { error } = result;
      if (error.cause instanceof ZodError) {
        note({ [errorCodeAttribute]: "invalid_request" });
        return result;
      }
      const cause =
        error.cause instanceof AppError
          ? error.cause
          : error.code === "INTERNAL_SERVER_ERROR"
            ? toAppError(error, ctx.requestId, ctx.clientRequestId)
            : undefined;
      if (!cause) return result;
      note({ [errorCodeAttribute]: cause.code });
      return {
        ...result,
        error: new TRPCError({ code: errorTable[cause.code].trpc, message: cause.message, cause }),
      };
    },
  ),
);

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
