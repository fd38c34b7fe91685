/**
 * tRPC initialisation. The error formatter reads the one error table (server/errors.ts), so tRPC
 * clients see the same code and status as REST clients.
 */
import { initTRPC } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, errorTable } from "../errors";
import type { Context } from "./context";
import { zodFields } from "../http/zod-fields";
import { assertStorableInput } from "../http/storable-text";

export const t = initTRPC.context<Context>().create({
  errorFormatter: ({ shape, error }) => {
    const cause = error.cause;
    if (cause instanceof AppError) {
      return { ...shape, message: cause.message, data: { ...shape.data, code: cause.code, httpStatus: cause.status, fields: cause.options.fields } };
    }
    if (cause instanceof ZodError) {
      return { ...shape, data: { ...shape.data, code: "invalid_request", httpStatus: errorTable.invalid_request.status, fields: zodFields(cause) } };
    }
    return shape;
  },
});

/**
 * Every procedure starts here: the raw input (a REST body or query as the edge parsed it, an MCP
 * tool's arguments, a tRPC request, a page's call) may hold no NUL or other control character, no
 * lone surrogate and no deep nesting (422 naming the field). One place, before any schema, because
 * every edge reaches the database through a procedure (issue 24 L2).
 */
export const baseProcedure = t.procedure.use(async ({ getRawInput, next }) => {
  assertStorableInput(await getRawInput());
  return next();
});

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;
