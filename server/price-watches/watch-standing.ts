/**
 * A watch's standing: whether the person still lets its assistant buy for them, the one rule the
 * evaluator checks before any quote and every change of those permissions applies at once.
 * A watch can no longer buy when the assistant lost its purchase:write grant (the person
 * disconnected it, a grant was revoked, the client was revoked), purchases are paused, or the
 * limits are gone or below the watch's max_total.
 *
 * `endWatchesOutOfStanding` runs in the transaction of such a change: every live watch it takes
 * the standing from ends there (event `withdraw`, with its email and webhook event), so the person
 * sees the watch end when they act, not at the next price change. An executing watch (claimed, its
 * purchase about to run or being replayed by the recovery sweep) ends too unless its purchase
 * exists: that is decided under the person's row lock, the one the purchase takes to check the grant
 * and the watch (review M3), so either the purchase was made while the person still let it (it stays
 * the watch's, recorded as usual) or it finds the grant gone and the watch ended and buys nothing.
 */
import type { Tx } from "../platform/db";
import type { EndOutcome } from "./states";
import { purchaseRefusal, type SpendingSettings } from "../core/spending-limits";
import { notifyPriceWatchClosed } from "../platform/jobs/events";
import { spendingColumnsSql, type SpendingRow, spendingSettingsOf } from "../accounts";
import { Prisma } from "../generated/prisma/client";
import { hasPurchaseGrantSql } from "../purchases";
import type { Sql } from "../platform/sql";
import { moveWatch } from "./watch-writer";
import { writeWatchEndedEmail } from "./watch-emails";

type Actor = { clientId: string; personId: string };
type Standing = { hasGrant: boolean; settings: SpendingSettings | undefined };

/** The standing as columns: the grant and the settings. */
export type StandingRow = SpendingRow & { hasGrant: boolean };

/**
 * The standing's columns, in a query that has the person's row as `p`; `clientId` is the
 * assistant's id, a value or a column (the evaluator reads them with the watch, in one statement).
 */
export const standingColumnsSql = (clientId: string | Prisma.Sql, now: Date) => Prisma.sql`
  ${spendingColumnsSql},
  ${hasPurchaseGrantSql(clientId, Prisma.sql`p.id`, now)} AS "hasGrant"`;

const standingOf = (row: StandingRow | undefined): Standing => ({
  hasGrant: row?.hasGrant ?? false,
  settings: row && spendingSettingsOf(row),
});

const readStanding = async (sql: Sql, actor: Actor, now: Date): Promise<Standing> => {
  const [row] = await sql.$queryRaw<
    StandingRow[]
  >`SELECT ${standingColumnsSql(actor.clientId, now)} FROM persons p WHERE p.id = ${actor.personId}`;
  return standingOf(row);
};

const outcomeOf = (standing: Standing, maxTotalCents: number): EndOutcome | null => {
  if (!standing.hasGrant) return "assistant_disconnected";
  const refusal = standing.settings ? purchaseRefusal(standing.settings) : "spending_limit_not_set";
  if (refusal === "purchases_paused") return "purchases_paused";
  if (refusal || standing.settings!.limitPerOrderCents! < maxTotalCents) return "limits_lowered";
  return null;
};

/** Why this watch can no longer buy, or null when it still may, from its standing's columns (`standingColumnsSql`). */
export const standingOutcome = (row: StandingRow, maxTotalCents: number) =>
  outcomeOf(standingOf(row), maxTotalCents);

/**
 * Ends, in this transaction, the active watches of a person and/or a client whose standing the
 * change just took away; the ids it ended (pass them to `notifyWatchesEnded` after the commit).
 */
export const endWatchesOutOfStanding = async (
  tx: Tx,
  scope: { personId?: string; clientId?: string },
  now: Date,
) => {
  const where = { personId: scope.personId, clientId: scope.clientId };
  const active = await tx.priceWatch.findMany({
    where: { ...where, status: "active" },
    select: { id: true, clientId: true, personId: true, maxTotalCents: true },
    orderBy: { id: "asc" },
  });
  const watches = [...active, ...(await executingWithoutPurchase(tx, where))];
  const standings = new Map<string, Standing>();
  const ended: number[] = [];
  for (const watch of watches) {
    const key = `${watch.clientId} ${watch.personId}`;
    if (!standings.has(key)) standings.set(key, await readStanding(tx, watch, now));
    const outcome = outcomeOf(standings.get(key)!, watch.maxTotalCents);
    if (!outcome) continue;
    const moved = await moveWatch(tx, { id: watch.id, event: "withdraw", outcome, now });
    if (!moved) continue;
    await writeWatchEndedEmail(tx, moved, outcome);
    ended.push(watch.id);
  }
  return ended;
};

/**
 * The executing watches of the scope whose purchase does not exist, read after taking their persons'
 * row locks (in id order): a purchase in its first transaction holds that lock to its commit, so
 * what is read here is either a committed purchase or none that can still pass its checks.
 */
const executingWithoutPurchase = async (
  tx: Tx,
  where: { personId?: string; clientId?: string },
) => {
  const claimed = await tx.priceWatch.findMany({
    where: { ...where, status: "executing" },
    select: { personId: true },
  });
  if (claimed.length === 0) return [];
  const personIds = [...new Set(claimed.map((watch) => watch.personId))].sort();
  await tx.$queryRaw`SELECT id FROM persons WHERE id = ANY(${personIds}::text[]) ORDER BY id FOR NO KEY UPDATE`;
  return tx.$queryRaw<{ id: number; clientId: string; personId: string; maxTotalCents: number }[]>`
    SELECT w.id, w.client_id AS "clientId", w.person_id AS "personId", w.max_total_cents AS "maxTotalCents"
    FROM price_watches w
    WHERE w.status = 'executing' AND w.person_id = ANY(${personIds}::text[])
      AND (${where.personId ?? null}::text IS NULL OR w.person_id = ${where.personId ?? null}::text)
      AND (${where.clientId ?? null}::text IS NULL OR w.client_id = ${where.clientId ?? null}::text)
      AND w.purchase_id IS NULL AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.quote_id = w.quote_id)
    ORDER BY w.id`;
};

/** After the change committed: the ended watches' expiry timers are no longer needed. */
export const notifyWatchesEnded = (ids: readonly number[]) =>
  ids.forEach((id) => notifyPriceWatchClosed(id));
