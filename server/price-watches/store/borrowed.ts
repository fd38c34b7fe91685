/**
 * Borrowed: the purchase of a watch's recorded quote (a join of the watch with purchases' table)
 * that the watch's recording and recovery need, and the assistant's name (auth's `api_clients`) for
 * the bought email. They are here, each a query the use case already made, only until those
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

/** The name of the assistant that set a watch, as the person approved it (auth's api_clients; "" when gone). */
export const readAssistantName = async (sql: Sql, clientId: string) => {
  const [client] = await sql.$queryRaw<
    { name: string }[]
  >`SELECT name FROM api_clients WHERE id = ${clientId}`;
  return client?.name ?? "";
};
