/**
 * Rule 1 of POST /purchases, shared by POST /price-watches and the watch evaluator: the token must
 * be one a person granted (linked account), to an assistant registered at /oauth/register/agent for
 * which purchases are switched on (`client:set --purchases`).
 */
import { agentPurchasesOn } from "./agent-purchases";
import type { Db } from "../platform/db";
import { findClientPurchaseSwitch } from "../auth";
import { AppError } from "../core/errors";
import type { Actor } from "../platform/trpc/context";
import { requirePersonGrant } from "../platform/trpc/admission";

/** The person and assistant of a token a person granted; insufficient_scope for any other token. */
export const grantingPerson = (actor: Actor) => requirePersonGrant(actor, "purchase:write");

/** The assistant's name when purchases are on for it; agent_purchases_unavailable (403, or 409 where every refusal is) otherwise. */
const assistantAllowedToBuy = async (db: Db, clientId: string, options: { status?: 409 } = {}) => {
  const client = await findClientPurchaseSwitch(db, clientId);
  if (!client || !agentPurchasesOn(client)) throw agentPurchasesUnavailable(options);
  return client.name;
};

export const agentPurchasesUnavailable = (options: { status?: 409 } = {}) =>
  new AppError("agent_purchases_unavailable", {
    message:
      "Purchases are not available to this client: only to assistants registered at /oauth/register/agent that purchases are switched on for.",
    status: options.status,
  });

/** Both checks: the person, the assistant and its name. */
export const purchasingAgent = async (db: Db, actor: Actor, options: { status?: 409 } = {}) => {
  const { personId, clientId } = grantingPerson(actor);
  return { personId, clientId, assistant: await assistantAllowedToBuy(db, clientId, options) };
};
