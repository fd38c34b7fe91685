/**
 * Procedure builders. `scopedProcedure(scope)` admits a token that carries the scope; the
 * system actor (jobs, ops) passes every check.
 */
import { AppError } from "../errors";
import { t } from "./init";

export const publicProcedure = t.procedure;

/** Admits an API token carrying `scope` (403 insufficient_scope otherwise). */
export const scopedProcedure = (scope: string) =>
  t.procedure.use(({ ctx, next }) => {
    const { actor } = ctx;
    if (actor.kind === "system") return next();
    if (actor.kind !== "client") throw new AppError("unauthorized");
    if (!actor.scopes.includes(scope)) {
      throw new AppError("insufficient_scope", { message: `This operation needs the ${scope} scope.`, details: { scope } });
    }
    return next({ ctx: { ...ctx, actor } });
  });
