/**
 * tRPC initialisation. The error formatter reads the one error table (server/errors.ts), so tRPC
 * clients see the same code and status as REST clients.
 */
import { initTRPC } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, errorTable } from "../errors";
import type { Context } from "./context";
import { zodFields } from "../http/zod-fields";

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

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;
