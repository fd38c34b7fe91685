/**
 * Procedure builders. `scopedProcedure(scope)` admits a token that carries the scope; the
 * system actor (jobs, ops) passes every check.
 */
import { AppError } from "../../core/errors";
import { baseProcedure } from "./init";

export const publicProcedure = baseProcedure;

/** Admits an API token carrying `scope` (403 insufficient_scope otherwise). */
export const scopedProcedure = (scope: string) =>
  baseProcedure.use(({ ctx, next }) => {
    const { actor } = ctx;
    if (actor.kind === "system") return next();
    if (actor.kind !== "client") throw new AppError("unauthorized");
    if (!actor.scopes.includes(scope)) {
      throw new AppError("insufficient_scope", {
        message: `This operation needs the ${scope} scope.`,
        details: { scope },
      });
    }
    return next({ ctx: { ...ctx, actor } });
  });

/** Admits a shopper signed in to the pages; `ctx.personId` is theirs (401 otherwise). */
export const shopperProcedure = baseProcedure.use(({ ctx, next }) => {
  if (ctx.actor.kind !== "person")
    throw new AppError("unauthorized", { message: "Sign in to continue." });
  return next({ ctx: { ...ctx, personId: ctx.actor.personId } });
});

/**
 * Admits whoever may read one person's data: the shopper themselves (page session), or a token
 * that person granted (linked account) carrying `scope`. `ctx.personId` is always the data owner,
 * taken from the session or the token, never from input, so nobody reaches another person's data.
 * A client-credentials token has no person and gets 403.
 */
export const personDataProcedure = (scope: string) =>
  baseProcedure.use(({ ctx, next }) => {
    const { actor } = ctx;
    if (actor.kind === "person") return next({ ctx: { ...ctx, personId: actor.personId } });
    if (actor.kind !== "client") throw new AppError("unauthorized");
    if (!actor.personId || !actor.scopes.includes(scope)) {
      throw new AppError("insufficient_scope", {
        message: actor.personId
          ? `This operation needs the ${scope} scope.`
          : `This operation needs a linked-account token with the ${scope} scope.`,
        details: { scope },
      });
    }
    return next({ ctx: { ...ctx, personId: actor.personId } });
  });

/**
 * Admits any valid API token of a client, whatever its scopes; `ctx.owner` is the client and, for a
 * linked token, the person (what the client configures about itself, such as webhook endpoints).
 */
export const clientProcedure = baseProcedure.use(({ ctx, next }) => {
  const { actor } = ctx;
  if (actor.kind !== "client") throw new AppError("unauthorized");
  return next({
    ctx: { ...ctx, owner: { clientId: actor.clientId, personId: actor.personId ?? null } },
  });
});
