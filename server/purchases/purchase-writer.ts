/**
 * The one writer of a purchase's status (STYLE habit 12). Every move (the hold recorded at
 * creation, the charge claimed and recorded, the person's cancel, the releases for item_sold and
 * notice_undelivered, reconciliation) goes through `movePurchase`: one conditional update guarded
 * by the state table (server/purchases/states.ts), so a status only moves along its arrows
 * however many workers race, and exactly one of them sees the move happen.
 */
import { type PurchaseEvent, type PurchaseState, purchaseTransition } from "./states";
import { type Db, isRootClient } from "../platform/db";
import { Prisma } from "../generated/prisma/client";
import type { Sql } from "../platform/sql";
import { readOwnPurchase } from "./purchases.queries";
import { purchaseEventType } from "../partners";
import { recipientsSql, recordWebhookEvent } from "../partners";
import { writeStoreOrders } from "../checkout";
import type { QuoteSnapshot } from "../checkout";

export type PurchaseMove = {
  id: string;
  event: PurchaseEvent;
  now: Date;
  /** For needs_person and refuse: the code (card_declined, bank_no_answer, …); other events carry their own. */
  reason?: string;
  /** For hold: the order number and when the card will be charged (also the cancel deadline). */
  held?: { orderNumber: string; chargesAt: Date };
  /** Who cancelled: person, or service (item_sold, notice_undelivered). */
  by?: string;
};

/** The column stamped with the time of the move into each state. */
const stampColumns: Partial<Record<PurchaseState, string>> = {
  held: "held_at",
  capturing: "capturing_at",
  paid: "paid_at",
};

/**
 * Applies `event` when the table allows it; true when this call moved the purchase. Given the
 * database rather than a transaction, it opens one: the move and its webhook event commit together.
 * Raw SQL throughout, so POST /purchases runs it in its `pg` transaction (server/platform/sql.ts).
 */
export const movePurchase = (writer: Sql | Db, move: PurchaseMove): Promise<boolean> =>
  isRootClient(writer)
    ? writer.$transaction((tx) => moveInTransaction(tx, move))
    : moveInTransaction(writer, move);

const moveInTransaction = async (tx: Sql, move: PurchaseMove): Promise<boolean> => {
  const rule = purchaseTransition(move.event);
  const reason = rule.reason ?? move.reason ?? null;
  const stamp = Prisma.raw(stampColumns[rule.to] ?? "closed_at");
  const held = move.held ?? null;
  const cancelledBy =
    rule.to === "cancelled" ? (move.by ?? (move.event === "cancel" ? "person" : "service")) : null;
  const type = purchaseEventType(rule.to);
  // The webhook endpoints that hear of the move, read by the move itself.
  const recipients = type
    ? recipientsSql({
        type,
        clientId: Prisma.sql`purchases.client_id`,
        personId: Prisma.sql`purchases.person_id`,
        now: move.now,
      })
    : Prisma.sql`NULL::text[]`;
  // A hold also returns what its store orders are written from.
  const forOrders = held
    ? Prisma.sql`, email, (SELECT q.snapshot FROM quotes q WHERE q.id = purchases.quote_id) AS snapshot`
    : Prisma.empty;
  const moved = await tx.$queryRaw<
    {
      clientId: string;
      personId: string;
      recipients: string[] | null;
      email?: string;
      snapshot?: QuoteSnapshot;
    }[]
  >`
    UPDATE purchases SET status = ${rule.to}::"PurchaseStatus", updated_at = ${move.now}, ${stamp} = ${move.now},
      charges_at = ${held ? Prisma.sql`${held.chargesAt}` : rule.clearsChargesAt ? Prisma.sql`NULL` : Prisma.sql`charges_at`},
      cancel_until = ${held ? Prisma.sql`${held.chargesAt}` : Prisma.sql`cancel_until`},
      order_number = COALESCE(${held?.orderNumber ?? null}, order_number),
      cancelled_by = COALESCE(${cancelledBy}, cancelled_by),
      reason = COALESCE(${reason}, reason)
    WHERE id = ${move.id} AND status::text = ANY(${[...rule.from]}::text[])
      ${rule.needsDue ? Prisma.sql`AND charges_at <= ${move.now}` : Prisma.empty}
      ${rule.needsCancellable ? Prisma.sql`AND cancel_until > ${move.now}` : Prisma.empty}
    RETURNING client_id AS "clientId", person_id AS "personId", ${recipients} AS recipients ${forOrders}`;
  const count = moved.length;
  // A hold places the purchase's store orders (the reference: "order placed"), one per store of its
  // quote at its default shipping (the purchase's total), under the person's account; they stay,
  // shown cancelled, when the purchase is cancelled before the charge.
  if (count === 1 && held) {
    const { personId, email, snapshot } = moved[0];
    await writeStoreOrders(tx, {
      owner: { purchaseId: move.id },
      snapshot: snapshot!,
      selections: {},
      personId,
      email: email!,
      orderNumber: held.orderNumber,
      now: move.now,
    });
  }
  // The quote's items were reserved when the purchase was written (POST /purchases); a purchase that
  // ends without a charge gives them back, once: only the caller whose move happened gets here.
  if (count === 1 && releasingStates.includes(rule.to)) await releasePurchaseStock(tx, move.id);
  if (count === 1 && type && moved[0].recipients) {
    // The payload is the purchase as GET /purchases/{id} answers it after the move.
    const { clientId, personId, recipients: endpoints } = moved[0];
    await recordWebhookEvent(tx, {
      type,
      clientId,
      personId,
      recipients: endpoints,
      objectId: move.id,
      now: move.now,
      data: () => readOwnPurchase(tx, { kind: "system" }, move.id),
    });
  }
  return count === 1;
};

/** Closing states that charge nothing: the reservation is given back. */
const releasingStates: readonly PurchaseState[] = ["requires_person", "refused", "cancelled"];

/** Adds the purchase's quote lines back to the variants' quantity (and touches the items for the search index). */
const releasePurchaseStock = (tx: Sql, purchaseId: string) => tx.$executeRaw`
  WITH freed AS (
    SELECT (line->>'variantId')::int AS variant_id, sum((line->>'quantity')::int)::int AS quantity
    FROM purchases p JOIN quotes q ON q.id = p.quote_id,
         jsonb_array_elements(q.snapshot->'stores') store, jsonb_array_elements(store->'lines') line
    WHERE p.id = ${purchaseId} GROUP BY 1),
  given AS (UPDATE variants v SET quantity = v.quantity + f.quantity FROM freed f WHERE v.id = f.variant_id RETURNING v.item_id)
  UPDATE items SET updated_at = now() WHERE id IN (SELECT item_id FROM given)`;
