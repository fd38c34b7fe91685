/**
 * Rule 1 of POST /purchases, shared by POST /price-watches: the token must be one a person granted
 * (linked account) to an assistant registered at /oauth/register/agent for which purchases are
 * switched on (`client:set --purchases`). Returns the person, the assistant and its name.
 */
import { agentPurchasesOn } from "../auth/agent-purchases";
import type { Db } from "../db";
import { AppError } from "../errors";
import type { Actor } from "../trpc/context";

export const purchasingAgent = async (db: Pick<Db, "apiClient">, actor: Actor, options: { status?: 409 } = {}) => {
  if (actor.kind !== "client" || !actor.personId) {
    throw new AppError("insufficient_scope", { message: "This operation needs a token the person granted (linked account) with purchase:write.", details: { scope: "purchase:write" } });
  }
  const client = await db.apiClient.findUnique({ where: { id: actor.clientId }, select: { kind: true, name: true, purchasesEnabled: true } });
  if (!client || !agentPurchasesOn(client)) {
    throw new AppError("agent_purchases_unavailable", {
      message: "Purchases are not available to this client: only to assistants registered at /oauth/register/agent that purchases are switched on for.",
      status: options.status,
    });
  }
  return { personId: actor.personId, clientId: actor.clientId, assistant: client.name };
};
