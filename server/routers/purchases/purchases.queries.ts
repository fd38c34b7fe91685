/**
 * One purchase as the reference's Purchase, found only through its owner: the client that made it
 * and the person on the token (purchase:write tokens always carry one). Anyone else gets not_found
 * (never 403, B2-12). GET /purchases/{id} and the sandbox helpers answer with it.
 */
import type { Db } from "../../db";
import { AppError } from "../../errors";
import type { Actor } from "../../trpc/context";
import { toWirePurchase } from "./purchase-view";
import type { TPurchase } from "./purchase.schema";

/** The filter that finds only the actor's own purchases (the system actor sees all). */
export const purchaseOwnerFilter = (actor: Actor) => (actor.kind === "client" ? { clientId: actor.clientId, personId: actor.personId ?? "" } : actor.kind === "system" ? {} : { clientId: "" });

/** The purchase row if the actor owns it; not_found otherwise. */
export const findOwnPurchase = async (db: Pick<Db, "purchase">, actor: Actor, id: string) => {
  const purchase = await db.purchase.findFirst({ where: { id, ...purchaseOwnerFilter(actor) }, include: { orders: { select: { fulfilment: true } } } });
  if (!purchase) throw new AppError("not_found", { message: `No purchase ${id}.` });
  return purchase;
};

/** The owned purchase in the wire shape, with the checkout link the person may pay at when it needs them. */
export const readOwnPurchase = async (db: Pick<Db, "purchase" | "checkout">, actor: Actor, id: string): Promise<TPurchase> => {
  const purchase = await findOwnPurchase(db, actor, id);
  const checkout =
    purchase.status === "requires_person"
      ? await db.checkout.findFirst({ where: { quoteId: purchase.quoteId, clientId: purchase.clientId, personId: purchase.personId }, orderBy: { createdAt: "desc" }, select: { id: true, expiresAt: true } })
      : null;
  return toWirePurchase(purchase, checkout);
};
