/**
 * Borrowed: reads of `purchases` (purchases' table, with the quote and checkout a purchase made)
 * that the watch's recording and recovery need, and of the assistant's name (auth's `api_clients`)
 * for the bought email. They are here, each a query the use case already made, only until those
 * stores offer them through their index, and should move there (ADR 0103, "Still crossing"). Raw
 * SQL as before: they run on the pool or in a `pg` transaction beside the watch's moves.
 */
import type { Sql } from "../../platform/sql";

/** The purchase of the watch's recorded quote, if one exists (the watch's one purchase). */
export const findPurchaseOfWatchQuote = async (sql: Sql, id: number) => {
  const [made] = await sql.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM price_watches w JOIN purchases p ON p.quote_id = w.quote_id WHERE w.id = ${id}`;
  return made?.id;
};

/** The purchase of a quote, if one exists. */
export const findPurchaseOfQuote = async (sql: Sql, quoteId: string) => {
  const [made] = await sql.$queryRaw<
    { id: string }[]
  >`SELECT id FROM purchases WHERE quote_id = ${quoteId}`;
  return made?.id;
};

/** What recording a purchase on its watch needs: the purchase, its unit price, and the checkout a requires_person answer made. */
export type RecordedPurchase = {
  id: string;
  status: string;
  reason: string | null;
  orderNumber: string | null;
  grandTotalCents: number;
  chargesAt: Date | null;
  cancelUntil: Date;
  priceCents: number;
  checkoutId: string | null;
  checkoutExpiresAt: Date | null;
};

/** A purchase as its watch records it (undefined when there is no such purchase). */
export const readRecordedPurchase = async (sql: Sql, purchaseId: string) => {
  const [purchase] = await sql.$queryRaw<RecordedPurchase[]>`
    SELECT p.id, p.status::text AS status, p.reason, p.order_number AS "orderNumber", p.grand_total_cents AS "grandTotalCents",
      p.charges_at AS "chargesAt", p.cancel_until AS "cancelUntil",
      COALESCE((q.snapshot #>> '{stores,0,lines,0,unitPriceCents}')::int, 0) AS "priceCents", c.id AS "checkoutId", c.expires_at AS "checkoutExpiresAt"
    FROM purchases p JOIN quotes q ON q.id = p.quote_id
    LEFT JOIN LATERAL (SELECT id, expires_at FROM checkouts WHERE quote_id = q.id ORDER BY created_at DESC LIMIT 1) c ON true
    WHERE p.id = ${purchaseId}`;
  return purchase;
};

/** The name of the assistant that set a watch, as the person approved it (auth's api_clients; "" when gone). */
export const readAssistantName = async (sql: Sql, clientId: string) => {
  const [client] = await sql.$queryRaw<
    { name: string }[]
  >`SELECT name FROM api_clients WHERE id = ${clientId}`;
  return client?.name ?? "";
};
