/**
 * The one writer of price_watches.status: each move is one conditional update guarded by the
 * state table (server/price-watches/states.ts), so a watch moves once however many workers race
 * (two evaluators, the expiry sweep and its Inngest function, the person's cancel). A move to a
 * final state that the person must hear about writes its email in the same transaction, and every
 * move to a final state records its webhook event there too (price_watch.fulfilled, .needs_you, .ended).
 */
import { type PriceWatchEvent, type PriceWatchState, priceWatchTransition } from "./states";
import { isLiveStandingOrder, outcomeOfMove } from "../core/standing-order";
import { notifyPriceWatchClosed } from "../platform/jobs/events";
import type { PriceWatchRow } from "./price-watch-view";
import { toWirePriceWatch } from "./price-watch-view";
import { type Sql, sqlTransaction } from "../platform/sql";
import { priceWatchEventType } from "../partners";
import { recordWebhookEvent } from "../partners";
import { type EmailedWatch, writeWatchEndedEmails } from "./watch-emails";
import { updateWatchStatus, type WatchData } from "./store/moves";

type Move = {
  id: number;
  event: PriceWatchEvent;
  now: Date;
  outcome?: string;
  data?: WatchData;
  /** Narrows the statuses the event moves from to these of its rule's (the evaluator ends only an active watch item_sold: an executing one is its purchase's). */
  from?: readonly PriceWatchState[];
};

/** The watch as the move left it, with what its emails need. */
export type MovedWatch = PriceWatchRow &
  EmailedWatch & { clientId: string; personId: string; priceCents: number };

/**
 * Moves the watches of `ids` that the table allows from their current status (and time); the moved
 * watches (none when none moved). One conditional UPDATE (updateWatchStatus), raw SQL so it runs in
 * a Prisma or a `pg` transaction (server/platform/sql.ts). A move to a final state records its
 * webhook events, so it must be made inside a transaction.
 */
const moveWatches = async (
  sql: Sql,
  ids: readonly number[],
  move: Omit<Move, "id">,
): Promise<MovedWatch[]> => {
  const rule = priceWatchTransition(move.event);
  const isFinal = !isLiveStandingOrder(rule.to);
  const type = priceWatchEventType(rule.to);
  const moved = await updateWatchStatus(sql, ids, {
    to: rule.to,
    from: rule.from.filter((status) => !move.from || move.from.includes(status)),
    outcome: isFinal ? outcomeOfMove(rule, move.outcome) : null,
    isFinal,
    needsUnexpired: rule.needsUnexpired,
    needsExpired: rule.needsExpired,
    data: move.data ?? {},
    now: move.now,
    eventType: type,
  });
  const watches: MovedWatch[] = [];
  for (const { recipients: endpoints, ...row } of moved) {
    const watch = { ...row, item: { title: row.title, priceCents: row.priceCents } };
    if (type && endpoints) {
      await recordWebhookEvent(sql, {
        type,
        clientId: watch.clientId,
        personId: watch.personId,
        objectId: String(watch.id),
        now: move.now,
        data: () => toWirePriceWatch(watch),
        recipients: endpoints,
      });
    }
    watches.push(watch);
  }
  return watches;
};

/** `moveWatches` of one watch: the moved watch, or null when it did not move. */
export const moveWatch = async (sql: Sql, move: Move): Promise<MovedWatch | null> =>
  (await moveWatches(sql, [move.id], move))[0] ?? null;

type EndMove = Omit<Move, "id"> & { event: "expire" | "item_sold" | "cancel" | "end" };

/**
 * Ends a watch without a purchase (expire, item_sold, cancel, end) and emails the person, in one
 * transaction; true when this call ended it (false: it had already moved on).
 */
export const endWatch = async (move: EndMove & { id: number }, options: { email?: boolean } = {}) =>
  (await endWatches([move.id], move, options)).length === 1;

/** `endWatch` of several watches in one transaction (the watches of a sold item); the ids of those this call ended. */
export const endWatches = async (
  ids: readonly number[],
  move: EndMove,
  options: { email?: boolean } = {},
) => {
  const ended = await sqlTransaction((sql) => endWatchesIn(sql, ids, move, options));
  for (const id of ended) notifyPriceWatchClosed(id);
  return ended;
};

/** `endWatch` in the caller's transaction (the caller notifies after its commit). */
export const endWatchIn = async (sql: Sql, move: EndMove & { id: number }) =>
  (await endWatchesIn(sql, [move.id], move)).length === 1;

const endWatchesIn = async (
  sql: Sql,
  ids: readonly number[],
  move: EndMove,
  options: { email?: boolean } = {},
) => {
  const outcome = outcomeOfMove(priceWatchTransition(move.event), move.outcome) ?? "expired";
  const watches = await moveWatches(sql, ids, { ...move, outcome });
  // An any-of group's alternative that ends alone (its item sold) sends nothing: the group goes on,
  // and the person hears of the group (bought, or ended with every alternative: groups/).
  const emailed = watches.filter((watch) => watch.groupId === null);
  if (options.email ?? true) await writeWatchEndedEmails(sql, emailed, outcome);
  return watches.map((watch) => watch.id);
};
