/**
 * The one writer of a purchase's status (STYLE habit 12). Every move (the hold recorded at
 * creation, the charge claimed and recorded, the person's cancel, the releases for item_sold and
 * notice_undelivered, reconciliation) goes through `movePurchase`: one conditional update guarded
 * by the state table (server/purchases/states.ts), so a status only moves along its arrows
 * however many workers race, and exactly one of them sees the move happen.
 */
import { type PurchaseEvent, type PurchaseState, purchaseTransition } from "./states";
import { type Db, inTransaction, isRootClient } from "../platform/db";
import { count } from "../platform/observability/metrics";
import { Prisma } from "../generated/prisma/client";
import type { Sql } from "../platform/sql";
import { readOwnPurchase } from "./store/own-purchases";
import { type MovedRow, updatePurchaseStatus } from "./store/purchases";
import { purchaseEventType } from "../partners";
import { recipientsSql, recordWebhookEvent } from "../partners";
import { writeStoreOrders } from "../checkout";
import { restockVariants } from "../catalogue";
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
 * Applies `event` when the table allows it; the purchase as moved when this call moved it (a hold's
 * with its email, quote snapshot and address), undefined otherwise. Given the database rather than
 * a transaction, it opens one: the move and its webhook event commit together. Raw SQL throughout,
 * so POST /purchases runs it in its `pg` transaction (server/platform/sql.ts).
 */
export const movePurchase = (
  writer: Sql | Db,
  move: PurchaseMove,
): Promise<MovedRow | undefined> =>
  isRootClient(writer)
    ? inTransaction(writer, (tx) => moveInTransaction(tx, move))
    : moveInTransaction(writer, move);

/** The shopping_purchases_total outcome each move counts as (claim_charge is internal: the capture's own outcome follows). */
const outcomeOfEvent: Record<PurchaseEvent, string | undefined> = {
  hold: "held",
  needs_person: "declined",
  refuse: "refused",
  claim_charge: undefined,
  charged: "captured",
  charge_failed: "released",
  cancel: "cancelled",
  item_sold: "cancelled",
  notice_undelivered: "cancelled",
  refund: "refunded",
};

const moveInTransaction = async (tx: Sql, move: PurchaseMove): Promise<MovedRow | undefined> => {
  const rule = purchaseTransition(move.event);
  const held = move.held ?? null;
  const type = purchaseEventType(rule.to);
  const releases = releasingStates.includes(rule.to);
  const moved = await updatePurchaseStatus(tx, {
    id: move.id,
    to: rule.to,
    from: rule.from,
    now: move.now,
    stampColumn: stampColumns[rule.to] ?? "closed_at",
    reason: rule.reason ?? move.reason ?? null,
    cancelledBy:
      rule.to === "cancelled"
        ? (move.by ?? (move.event === "cancel" ? "person" : "service"))
        : null,
    held,
    clearsChargesAt: rule.clearsChargesAt,
    needsDue: rule.needsDue,
    needsCancellable: rule.needsCancellable,
    // The webhook endpoints that hear of the move, read by the move itself.
    recipients: type
      ? recipientsSql({
          type,
          clientId: Prisma.sql`purchases.client_id`,
          personId: Prisma.sql`purchases.person_id`,
          now: move.now,
        })
      : Prisma.sql`NULL::text[]`,
    // A hold also returns what its store orders are written from; a release, what it gives back.
    withSnapshot: Boolean(held) || releases,
  });
  if (!moved) return undefined;
  // Counted when the move is made (a transaction rolled back after it, e.g. an order number clash retried, counts it twice: rare).
  const outcome = outcomeOfEvent[move.event];
  if (outcome) count("shopping_purchases_total", { outcome });
  // A hold places the purchase's store orders (the reference: "order placed"), one per store of its
  // quote at its default shipping (the purchase's total), under the person's account; they stay,
  // shown cancelled, when the purchase is cancelled before the charge.
  if (held) {
    await writeStoreOrders(tx, {
      owner: { purchaseId: move.id },
      snapshot: moved.snapshot!,
      selections: {},
      personId: moved.personId,
      email: moved.email!,
      orderNumber: held.orderNumber,
      now: move.now,
    });
  }
  // The quote's items were reserved when the purchase was written (POST /purchases); a purchase that
  // ends without a charge gives them back, once: only the caller whose move happened gets here. The
  // catalogue adds them back to the variants' quantity (and touches the items for the search index).
  if (releases) await restockVariants(tx, quoteLines(moved.snapshot!));
  if (type && moved.recipients) {
    // The payload is the purchase as GET /purchases/{id} answers it after the move.
    const { clientId, personId, recipients: endpoints } = moved;
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
  return moved;
};

/** Closing states that charge nothing: the reservation is given back. */
const releasingStates: readonly PurchaseState[] = ["requires_person", "refused", "cancelled"];

/** The variants and quantities of the purchase's quote (what its reservation took). */
const quoteLines = (snapshot: QuoteSnapshot) =>
  snapshot.stores.flatMap((store) =>
    store.lines.map((line) => ({ variantId: line.variantId, quantity: line.quantity })),
  );
