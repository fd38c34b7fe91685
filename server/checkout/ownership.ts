/**
 * Quotes and checkouts belong to the client that created them and, for a linked token, to the
 * person on it: one assistant serves many people, so (client, person) is the owner, and a
 * client-credentials token (no person) owns only person-less objects. Another owner's quote or
 * checkout is not_found, never forbidden, so ids leak nothing (RELIABILITY.md B2-12/13).
 */
import { AppError } from "../core/errors";
import type { Actor, Context } from "../platform/trpc/context";
import { type CheckoutRow, findOwnedCheckout } from "./store/checkouts";

/** The owner columns written on a new quote or checkout (jobs and ops act as "system"). */
export const ownerOf = (actor: Actor) =>
  actor.kind === "client"
    ? { clientId: actor.clientId, personId: actor.personId ?? null }
    : { clientId: "system", personId: null };

/** The filter that finds only the actor's own quotes and checkouts (the system actor sees all). */
export const ownerFilter = (actor: Actor) =>
  actor.kind === "client" ? ownerOf(actor) : actor.kind === "system" ? {} : { clientId: "" };

export const findOwnCheckout = async (ctx: Context, id: string): Promise<CheckoutRow> => {
  const checkout = await findOwnedCheckout(ctx.db, id, ownerFilter(ctx.actor));
  if (!checkout) throw new AppError("not_found", { message: `No checkout ${id}.` });
  return checkout;
};
