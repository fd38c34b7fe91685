/**
 * Store: the reads of purchases through their owner, with their store orders' fulfilment and the
 * checkout link of one that needs the person (read in the same statement: a join kept across
 * owners, docs/adr/0103-one-data-access-boundary.md). One purchase as the reference's Purchase,
 * found only through its owner: the client that made it and the person on the token (purchase:write
 * tokens always carry one). Anyone else gets not_found (never 403, B2-12). GET /purchases/{id} and
 * the sandbox helpers answer with it.
 */
import type { Db } from "../../platform/db";
import { Prisma } from "../../generated/prisma/client";
import type { Sql } from "../../platform/sql";
import { AppError } from "../../core/errors";
import type { Actor } from "../../platform/trpc/context";
import { type PurchaseRow, toWirePurchase } from "../purchase-view";
import type { TPurchase } from "../purchase.schema";

/** The filter that finds only the actor's own purchases (the system actor sees all). */
export const purchaseOwnerFilter = (actor: Actor) =>
  actor.kind === "client"
    ? { clientId: actor.clientId, personId: actor.personId ?? "" }
    : actor.kind === "system"
      ? {}
      : { clientId: "" };

/** The purchase row if the actor owns it; not_found otherwise. */
export const findOwnPurchase = async (db: Pick<Db, "purchase">, actor: Actor, id: string) => {
  const purchase = await db.purchase.findFirst({
    where: { id, ...purchaseOwnerFilter(actor) },
    include: { orders: { select: { fulfilment: true } } },
  });
  if (!purchase) throw new AppError("not_found", { message: `No purchase ${id}.` });
  return purchase;
};

/** purchaseOwnerFilter as SQL on `purchases p`, for the raw read below. */
const ownerSql = (actor: Actor) => {
  const filter = purchaseOwnerFilter(actor);
  if (!("clientId" in filter)) return Prisma.sql`TRUE`;
  return "personId" in filter
    ? Prisma.sql`p.client_id = ${filter.clientId} AND p.person_id = ${filter.personId}`
    : Prisma.sql`p.client_id = ${filter.clientId}`;
};

type OwnRow = PurchaseRow & { checkout: { id: string; expiresAt: string } | null };

/**
 * The owned purchase in the wire shape, with the checkout link the person may pay at when it needs
 * them: one raw statement, so the purchase writer can build webhook payloads with it inside its
 * `pg` transaction (server/platform/sql.ts) as well as GET /purchases/{id} on the database.
 */
export const readOwnPurchase = async (db: Sql, actor: Actor, id: string): Promise<TPurchase> => {
  const [row] = await db.$queryRaw<OwnRow[]>`
    ${ownColumns}
    FROM purchases p WHERE p.id = ${id} AND ${ownerSql(actor)}`;
  if (!row) throw new AppError("not_found", { message: `No purchase ${id}.` });
  return toOwnPurchase(row);
};

/**
 * A page of the purchases the actor's client made for the token's person, newest first, and how
 * many there are (GET /purchases). Served by the (person_id, created_at) index of purchases.
 */
export const listOwnPurchases = async (
  db: Sql,
  actor: Actor,
  page: { page: number; perPage: number },
): Promise<{ purchases: TPurchase[]; total: number }> => {
  const [rows, [{ total }]] = await Promise.all([
    db.$queryRaw<OwnRow[]>`
      ${ownColumns}
      FROM purchases p WHERE ${ownerSql(actor)}
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
    db.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS total FROM purchases p WHERE ${ownerSql(actor)}`,
  ]);
  return { purchases: rows.map(toOwnPurchase), total };
};

const toOwnPurchase = ({ checkout, ...purchase }: OwnRow) =>
  toWirePurchase(
    purchase,
    checkout && { id: checkout.id, expiresAt: new Date(checkout.expiresAt) },
  );

/** The Purchase's columns, with the checkout link of one that needs the person. */
const ownColumns = Prisma.sql`
    SELECT p.id, p.status::text AS status, p.reason, p.cancelled_by AS "cancelledBy", p.order_number AS "orderNumber", p.grand_total_cents AS "grandTotalCents",
      p.charges_at AS "chargesAt", p.cancel_until AS "cancelUntil", p.created_at AS "createdAt",
      COALESCE((SELECT json_agg(json_build_object('fulfilment', o.fulfilment)) FROM orders o WHERE o.purchase_id = p.id), '[]'::json) AS orders,
      (SELECT json_build_object('id', c.id, 'expiresAt', c.expires_at) FROM checkouts c
        WHERE p.status = 'requires_person' AND c.quote_id = p.quote_id AND c.client_id = p.client_id AND c.person_id = p.person_id
        ORDER BY c.created_at DESC LIMIT 1) AS checkout`;
