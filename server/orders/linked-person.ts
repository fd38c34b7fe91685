import { AppError } from "../core/errors";
import type { Actor } from "../platform/trpc/context";

/** The person behind a linked-account token; 403 for a client-credentials token (no person). */
export const linkedPersonId = (actor: Actor) => {
  const personId = actor.kind === "client" ? actor.personId : undefined;
  if (!personId)
    throw new AppError("insufficient_scope", {
      message: "This operation needs a token a person granted by linking their account.",
    });
  return personId;
};
