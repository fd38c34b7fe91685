/**
 * Checkouts belong to the client that created them. Another client's checkout is not_found, never
 * forbidden, so ids leak nothing (RELIABILITY.md B2-12/13).
 */
import { AppError } from "../../errors";
import type { Context } from "../../trpc/context";
import { type CheckoutRow, checkoutSelect } from "./checkout.queries";

export const ownerFilter = (actor: Context["actor"]) => (actor.kind === "client" ? { clientId: actor.clientId } : actor.kind === "system" ? {} : { clientId: "" });

export const findOwnCheckout = async (ctx: Context, id: string): Promise<CheckoutRow> => {
  const checkout = await ctx.db.checkout.findFirst({ where: { id, ...ownerFilter(ctx.actor) }, select: checkoutSelect });
  if (!checkout) throw new AppError("not_found", { message: `No checkout ${id}.` });
  return checkout;
};
