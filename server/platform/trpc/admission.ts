/**
 * The one check of who may call a procedure, from its meta (`Meta`, server/platform/trpc/init.ts).
 * The procedure's middleware runs it (procedures.ts). The REST edge has to refuse before it parses
 * the request (401, then 429, then 403, then 422), so it runs the same check from the same meta and
 * hands the verdict to that procedure in the context (`admitted`), which takes it as it is: one
 * check per call, written once (docs/adr/0104-operation-contract-declared-once.md).
 */
import { AppError } from "../../core/errors";
import type { Scope } from "../../core/scopes";
import type { Actor, Admission, Context } from "./context";
import { type Meta, type Scopes, scopeList } from "./init";

/**
 * The person who granted this token by linking their account, and the client they granted it to;
 * undefined for client credentials, a shopper's session, a job. The one test of "a token a person
 * granted".
 */
const personGrantOf = (actor: Actor) =>
  actor.kind === "client" && actor.personId
    ? { clientId: actor.clientId, personId: actor.personId }
    : undefined;

/** 403 insufficient_scope naming the scope (`details.scope`: in the body, and in the challenge the edge writes: bearer-challenge.ts). */
const insufficientScope = (scope: Scope, message = `This operation needs the ${scope} scope.`) =>
  new AppError("insufficient_scope", {
    message,
    details: { scope },
  });

/** The token's grant, for an operation that needs `scope` on a token a person granted; 403 for any other actor. */
export const requirePersonGrant = (actor: Actor, scope: Scope) => {
  const grant = personGrantOf(actor);
  if (!grant)
    throw insufficientScope(
      scope,
      `This operation needs a linked-account token with the ${scope} scope.`,
    );
  return grant;
};

const tokenWithScope = (actor: Actor, scopes: Scopes) => {
  if (actor.kind !== "client") throw new AppError("unauthorized");
  const accepted = scopeList(scopes);
  if (!accepted.some((scope) => actor.scopes.includes(scope)))
    throw insufficientScope(
      accepted[0],
      `This operation needs the ${accepted.join(" or ")} scope.`,
    );
  return actor;
};

/** Admits `actor` to a procedure declaring `meta`, or throws 401 unauthorized or 403 insufficient_scope. */
export const admit = (meta: Meta, actor: Actor): Admission => {
  switch (meta.caller) {
    case "public":
      return {};
    case "shopper":
      if (actor.kind !== "person")
        throw new AppError("unauthorized", { message: "Sign in to continue." });
      return { personId: actor.personId };
    case "client":
      if (actor.kind !== "client") throw new AppError("unauthorized");
      return { owner: { clientId: actor.clientId, personId: actor.personId ?? null } };
    case "partner":
      if (actor.kind !== "system") tokenWithScope(actor, meta.scope);
      return {};
    case "person":
    case "assistant":
      if (meta.caller === "person" && meta.shopper && actor.kind === "person")
        return { personId: actor.personId };
      return {
        personId: requirePersonGrant(tokenWithScope(actor, meta.scope), scopeList(meta.scope)[0])
          .personId,
      };
  }
};

/** The verdict for this call: the edge's when it admitted this very procedure, otherwise the check now. */
export const admission = (meta: Meta | undefined, ctx: Pick<Context, "actor" | "admitted">) => {
  if (!meta)
    throw new Error("A procedure declares its caller in its meta: build it with procedure()");
  return ctx.admitted?.meta === meta ? ctx.admitted.admission : admit(meta, ctx.actor);
};
