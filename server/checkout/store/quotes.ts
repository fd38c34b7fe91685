/**
 * Checkout store: quotes. The insert is raw on the pool (typed `Sql`): with the catalogue's one
 * statement for the items it is the whole of a quote's database work (docs/performance.md,
 * "Checkout-quote": the items 0.8 ms against 5.1 with Prisma's nested select, the insert 1.4 ms),
 * and a price watch's evaluation writes its quote with it too (ADR 0074). The read is Prisma.
 */
import type { Db } from "../../platform/db";
import type { Sql } from "../../platform/sql";
import type { OwnerFilter } from "./checkouts";

export type NewQuote = {
  id: string;
  clientId: string;
  personId: string | null;
  email: string | null;
  /** The shipping address as the request gave it (JSON). */
  address: unknown;
  /** The priced snapshot (server/checkout/quote-snapshot.ts). */
  snapshot: unknown;
  createdAt: Date;
  expiresAt: Date;
};

/** Writes a quote. */
export const insertQuote = (sql: Sql, quote: NewQuote) =>
  sql.$executeRaw`
    INSERT INTO quotes (id, client_id, person_id, email, address, snapshot, created_at, expires_at)
    VALUES (${quote.id}, ${quote.clientId}, ${quote.personId}, ${quote.email}, ${JSON.stringify(quote.address)}::jsonb, ${JSON.stringify(quote.snapshot)}::jsonb, ${quote.createdAt}, ${quote.expiresAt})`;

/** The quote `id` if `owner` owns it: its due time and snapshot (null otherwise). */
export const findOwnedQuote = (db: Db, id: string, owner: OwnerFilter) =>
  db.quote.findFirst({
    where: { id, ...owner },
    select: { id: true, expiresAt: true, snapshot: true },
  });
