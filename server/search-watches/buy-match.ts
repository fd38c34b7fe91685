/**
 * Buy mode: a search watch's first new match is bought once, through the ONE purchase path, exactly
 * as a price watch buys (ADR 0072, 0105): a fresh quote for the matched item at the saved address,
 * made as the watch's assistant (POST /checkout/quotes' `quoteItems`); within max_total, the watch
 * is claimed (active -> executing, one conditional update before expiry: of two matchers at most
 * one goes on), then POST /purchases' `buyQuote` with the watch's two steps: under the person's
 * lock the watch must still be claimed and the grant live (1c), and the answer is recorded on the
 * watch in the purchase's own transaction (3b). Same limits, hold, 24-hour charge and emailed
 * cancel link as any assistant purchase; the Idempotency-Key is the watch and its quote
 * (`sw-<id>-<quote>`), so a retry after a crash replays the same purchase. One purchase per watch,
 * ever (purchase_id is unique, and a fulfilled watch never claims again).
 */
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import { normalizeSize } from "../core/sizes";
import { toAppError } from "../platform/http/respond";
import {
  buyQuote,
  readRecordedPurchase,
  type RecordedPurchase,
  standingOrderFailure,
  type TPurchase,
  type TPurchaseOutcome,
} from "../purchases";
import { loadQuotableItems, quoteItems, snapshotTotals, ZCreateQuoteRequest } from "../checkout";
import { poolSql, type Sql, sqlTransaction } from "../platform/sql";
import { sizeToBuy } from "./policy";
import { outcomeOfPurchaseRefusal } from "./states";
import {
  type BuyingWatch,
  findPurchaseOfWatchQuote,
  keepPurchaseOnWatch,
  moveSearchWatch,
  readBuyingWatch,
  readClaimStanding,
} from "./store";

/** A quote's refusal meaning the item cannot be bought now (sold, reserved, its size gone). */
const isSoldRefusal = (error: unknown) =>
  ["nothing_to_buy", "invalid_request", "item_unavailable"].includes(toAppError(error).code);

/** A fresh quote of the matched item for the watch, or null when it cannot buy it (no size decides, sold, over max_total). */
const quoteMatch = async (watch: BuyingWatch, itemId: number, now: Date) => {
  const [item] = await loadQuotableItems(poolSql, [itemId]);
  // The total is the price plus shipping and tax (never negative): over max_total already, no quote
  // (a quote row, shipping and tax at every event of an item this watch cannot afford).
  if (!item || item.priceCents > watch.maxTotalCents) return null;
  const size = sizeToBuy(item.variants, {
    filterSizeKeys: (watch.filters.size ?? []).map(normalizeSize),
    savedSizeKeys: watch.sizes.map(normalizeSize),
  });
  if (!size) return null;
  try {
    const input = ZCreateQuoteRequest.parse({
      items: [{ item_id: itemId, size: size.size, quantity: 1 }],
      shipping_address: watch.address,
    });
    const quote = await quoteItems(
      { clientId: watch.clientId, personId: watch.personId },
      input,
      now,
    );
    const hasLine = quote.snapshot.stores.some((store) =>
      store.lines.some((line) => line.itemId === itemId),
    );
    if (!hasLine) return null;
    const total = snapshotTotals(quote.snapshot, {}).grandTotalCents;
    return total <= watch.maxTotalCents ? quote.id : null;
  } catch (error) {
    if (isSoldRefusal(error)) return null;
    throw error;
  }
};

/**
 * Tries to buy `itemId`, a new match of the buying watch `id`: quote, claim, buy, record. A match
 * it cannot buy (no size decides, sold meanwhile, over max_total) leaves the watch active for the
 * next one. Safe to run any number of times, concurrently.
 */
export const buyMatch = async (db: Db, id: string, itemId: number, now: Date) => {
  const watch = await readBuyingWatch(poolSql, id);
  if (!watch || watch.status !== "active") return;
  if (!watch.address) {
    await moveSearchWatch(poolSql, { id, event: "end", outcome: "address_not_on_file", now });
    return;
  }
  const quoteId = await quoteMatch(watch, itemId, now);
  if (!quoteId) return;
  const claimed = await moveSearchWatch(poolSql, {
    id,
    event: "claim",
    now,
    data: { itemId, quoteId, claimedAt: now },
  });
  if (!claimed) return;
  await buy(db, { id, clientId: watch.clientId, personId: watch.personId, quoteId }, now);
};

/** Replays the purchase of a claimed (executing) watch with its recorded quote (the recovery sweep). */
export const buyClaimed = async (db: Db, id: string, now: Date) => {
  const watch = await readBuyingWatch(poolSql, id);
  if (!watch || watch.status !== "executing" || !watch.quoteId) return;
  await buy(db, { ...watch, quoteId: watch.quoteId }, now);
};

const isPurchase = (body: TPurchaseOutcome["body"]): body is TPurchase => "purchase_id" in body;

/** Step 1c, under the person's lock: the watch still claimed and unexpired, and the grant live. */
const stillClaimed = async (sql: Sql, id: string, now: Date) => {
  const standing = await readClaimStanding(sql, id, now);
  if (standing && !standing.granted)
    throw new AppError("agent_purchases_unavailable", {
      message:
        "The person no longer lets this assistant buy for them; nothing was bought for the search watch.",
    });
  if (!standing?.live)
    throw new AppError("quote_expired", {
      message: "The search watch ended or expired before its purchase; nothing was bought.",
    });
};

const buy = async (
  db: Db,
  watch: { id: string; clientId: string; personId: string; quoteId: string },
  now: Date,
) => {
  const { id, quoteId } = watch;
  let outcome: TPurchaseOutcome;
  let recorded = false;
  try {
    const bought = await buyQuote(
      { db, now, clientId: watch.clientId, personId: watch.personId },
      { quote_id: quoteId, idempotency_key: `sw-${id}-${quoteId}` },
      {
        watch: {
          stillWanted: (sql) => stillClaimed(sql, id, now),
          recordAnswer: async (sql, { purchase }) => {
            recorded = true;
            await recordOnWatch(sql, id, purchase, now);
          },
        },
      },
    );
    outcome = bought.result;
  } catch (error) {
    const failure = standingOrderFailure(error);
    if (failure.kind === "in_flight") return;
    if (failure.kind === "refused") return void (await afterRefusal(id, failure.code, now));
    throw error;
  }
  if (!isPurchase(outcome.body)) return void (await afterRefusal(id, outcome.body.error.code, now));
  if (!recorded) await recordPurchase(id, outcome.body.purchase_id, now);
};

/**
 * Records the purchase's state on the watch, in the caller's transaction: processing keeps it on
 * the watch (executing until the bank answers: the recovery sweep); refused (the bank never
 * answered, nothing held) ends it payment_failed; requires_person: needs_you; anything else bought.
 */
const recordOnWatch = async (
  sql: Sql,
  id: string,
  purchase: Pick<RecordedPurchase, "id" | "status" | "reason" | "orderNumber">,
  now: Date,
) => {
  const purchaseId = purchase.id;
  if (purchase.status === "processing")
    return void (await keepPurchaseOnWatch(sql, id, purchaseId));
  if (purchase.status === "refused")
    return void (await moveSearchWatch(sql, {
      id,
      event: "end",
      outcome: "payment_failed",
      now,
      data: { purchaseId },
    }));
  if (purchase.status === "requires_person")
    return void (await moveSearchWatch(sql, {
      id,
      event: "needs_person",
      outcome: purchase.reason ?? "card_declined",
      now,
      data: { purchaseId },
    }));
  await moveSearchWatch(sql, {
    id,
    event: "bought",
    now,
    data: { purchaseId, orderNumber: purchase.orderNumber },
  });
};

/** Records a purchase that exists (a replay, the recovery sweep) on its watch. */
export const recordPurchase = async (id: string, purchaseId: string, now: Date) => {
  const purchase = await readRecordedPurchase(poolSql, purchaseId);
  if (!purchase) throw new Error(`purchase ${purchaseId} not found`);
  await sqlTransaction((sql) => recordOnWatch(sql, id, purchase, now));
};

/** After the purchase path refused: its purchase if one exists, else the refusal's end, else active again for a later match. */
const afterRefusal = async (id: string, code: string, now: Date) => {
  const made = await findPurchaseOfWatchQuote(poolSql, id);
  if (made) return recordPurchase(id, made, now);
  const ended = outcomeOfPurchaseRefusal(code);
  if (ended) return moveSearchWatch(poolSql, { id, event: "end", outcome: ended, now });
  return moveSearchWatch(poolSql, {
    id,
    event: "release",
    now,
    data: { itemId: null, quoteId: null, claimedAt: null },
  });
};
