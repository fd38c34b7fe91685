/**
 * Evaluating a price watch against the item's live price, and buying through the same path as
 * POST /purchases. The evaluator acts as the assistant that set the watch, for its person (that
 * client and person own the quote and the purchase), so the purchase is made by the very code an
 * assistant's calls run: a fresh quote for the saved address (POST /checkout/quotes' use case
 * `quoteItems`), then POST /purchases' use case `purchaseQuote` with it (key claimed and purchase written in one
 * short transaction, the hold asked outside any transaction, the answer recorded in a second; 24-hour
 * charge, copy email with cancel link, limits, the direct rule, idempotency). Exactly once:
 * - the purchase starts only after `claim` moved the watch active -> executing, one conditional
 *   update before expires_at, so of two evaluators (or two events) at most one goes on;
 * - the Idempotency-Key is the watch and its quote (`pw-<id>-<quote>`), and the quote is recorded
 *   with the claim, so a retry after a crash replays the same purchase rather than making another;
 * - a refusal that makes no purchase ends the watch or releases it to active (price_changed: the
 *   newer price change evaluates it again).
 * A sale evaluates thousands of watches at once, so the watch's own reads and moves are raw SQL
 * (server/platform/sql.ts: about a tenth of Prisma's CPU a statement); the quote and the purchase are the
 * operations' own code.
 */
import type { Db } from "../platform/db";
import { Prisma } from "../generated/prisma/client";
import { outcomeOfPurchaseRefusal } from "./states";
import { AppError } from "../core/errors";
import { toAppError } from "../platform/http/respond";
import { checkoutUrl } from "../checkout";
import { ZCreateQuoteRequest } from "../checkout";
import { quoteItems } from "../checkout";
import { loadQuotableItems } from "../checkout";
import { buildQuoteLines } from "../checkout";
import { snapshotTotals } from "../checkout";
import { buyQuote } from "../purchases";
import type { TPurchase, TPurchaseOutcome } from "../purchases";
import { notifyPriceWatchClosed } from "../platform/jobs/events";
import { poolSql, type Sql, sqlTransaction } from "../platform/sql";
import { hasPurchaseGrantSql } from "../purchases";
import { endWatch, endWatches, endWatchIn, moveWatch } from "./watch-writer";
import { type StandingRow, standingColumnsSql, standingOutcome } from "./watch-standing";
import { writeWatchBoughtEmail, writeWatchNeedsYouEmail } from "./watch-emails";

type WatchActor = { id: number; clientId: string; personId: string };

/** What evaluating a watch reads: the watch, its item's live price and status, and the person's saved address (null without one). */
type EvaluatedWatch = WatchActor &
  StandingRow & {
    itemId: number;
    size: string | null;
    maxPriceCents: number;
    maxTotalCents: number;
    expiresAt: Date;
    overTotal: boolean;
    priceCents: number;
    itemStatus: string;
    address: Record<string, string | null> | null;
  };

/**
 * The active watches on an item that a price change concerns, oldest first: those the live price is
 * within, and those last seen over their total (to clear that mark when the price rises again); the
 * others have nothing to do. Each with its standing and the saved address, all in one statement
 * (server/platform/sql.ts on why raw). The address is a quote's shipping_address: the purchase compares it
 * with the saved one. What is read may be stale by the time it is acted on, as any read is: every
 * move is conditional and the purchase checks again under its locks.
 */
const readItemWatches = (itemId: number, now: Date) =>
  poolSql.$queryRaw<EvaluatedWatch[]>`
    SELECT w.id, w.client_id AS "clientId", w.person_id AS "personId", w.item_id AS "itemId", w.size,
      w.max_price_cents AS "maxPriceCents", w.max_total_cents AS "maxTotalCents", w.expires_at AS "expiresAt", w.over_total AS "overTotal",
      i.price_cents AS "priceCents", i.status::text AS "itemStatus", ${standingColumnsSql(Prisma.sql`w.client_id`, now)},
      (SELECT json_build_object('name', a.name, 'line1', a.line1, 'line2', a.line2, 'city', a.city, 'province', a.province,
          'postal_code', a.postal_code, 'country', a.country, 'phone', a.phone)
        FROM shipping_addresses a WHERE a.person_id = w.person_id) AS address
    FROM price_watches w JOIN items i ON i.id = w.item_id JOIN persons p ON p.id = w.person_id
    WHERE w.item_id = ${itemId} AND w.status = 'active' AND (i.status <> 'active' OR w.max_price_cents >= i.price_cents OR w.over_total)
    ORDER BY w.id`;

/** A quote's refusal that means the watch's item is sold: nothing left to buy (sold, reserved, its store stopped selling), or its size is gone. */
const isSoldRefusal = (error: unknown) =>
  ["nothing_to_buy", "invalid_request"].includes(toAppError(error).code);

/** A fresh quote for the watch's item and size at the saved address, made as the watch's assistant: its id, unit price and total. */
const freshQuote = async (watch: EvaluatedWatch, now: Date) => {
  if (!watch.address) return { ended: "address_not_on_file" as const };
  try {
    // Parsed as POST /checkout/quotes parses it (the address normalised as the saved one is compared).
    const input = ZCreateQuoteRequest.parse({
      items: [{ item_id: watch.itemId, size: watch.size ?? undefined, quantity: 1 }],
      shipping_address: watch.address,
    });
    const quote = await quoteItems(
      { clientId: watch.clientId, personId: watch.personId },
      input,
      now,
    );
    const line = quote.snapshot.stores
      .flatMap((store) => store.lines)
      .find((candidate) => candidate.itemId === watch.itemId);
    if (!line) return { ended: "item_sold" as const };
    return {
      quoteId: quote.id,
      unitPriceCents: line.unitPriceCents,
      grandTotalCents: snapshotTotals(quote.snapshot, {}).grandTotalCents,
    };
  } catch (error) {
    if (isSoldRefusal(error)) return { ended: "item_sold" as const };
    throw error;
  }
};

const setOverTotal = (id: number, overTotal: boolean) =>
  poolSql.$executeRaw`UPDATE price_watches SET over_total = ${overTotal} WHERE id = ${id} AND status = 'active' AND over_total <> ${overTotal}`;

/**
 * What an evaluation did to its item's stock: `took_stock` (it bought) or `found_sold` (ended
 * item_sold) tell the item's other watches that theirs may be gone too (evaluateItemWatches).
 */
type Evaluation = "took_stock" | "found_sold" | undefined;

/** Ends active watches item_sold: the evaluator's, never a claimed one's (that is its purchase's to end). */
const endSold = (ids: number[], now: Date) =>
  endWatches(ids, { event: "item_sold", now, from: ["active"] });

/**
 * Evaluates one active watch now: ends it if it can no longer buy, stays active when the price or
 * the total is over, otherwise claims it and buys. Safe to run any number of times, concurrently.
 */
const evaluateWatch = async (db: Db, watch: EvaluatedWatch, now: Date): Promise<Evaluation> => {
  const { id } = watch;
  if (watch.expiresAt <= now) return void (await expireWatch(id, now));
  if (watch.itemStatus !== "active") {
    await endSold([id], now);
    return "found_sold";
  }
  if (watch.priceCents > watch.maxPriceCents) {
    if (watch.overTotal) await setOverTotal(id, false);
    return;
  }
  const stop = standingOutcome(watch, watch.maxTotalCents);
  if (stop) return void (await endWatch({ id, event: "end", outcome: stop, now }));
  const quote = await freshQuote(watch, now);
  if ("ended" in quote) {
    if (quote.ended !== "item_sold")
      return void (await endWatch({ id, event: "end", outcome: quote.ended, now }));
    await endSold([id], now);
    return "found_sold";
  }
  if (quote.unitPriceCents > watch.maxPriceCents) return; // the price rose again meanwhile; its own event re-evaluates
  if (quote.grandTotalCents > watch.maxTotalCents) {
    // Price right, total over: not charged, stays active; expiring so ends it over_your_total.
    await setOverTotal(id, true);
    return;
  }
  const claimed = await moveWatch(poolSql, {
    id,
    event: "claim",
    now,
    data: { quoteId: quote.quoteId, claimedAt: now },
  });
  if (claimed) return buy(db, { ...claimed, quoteId: quote.quoteId }, now);
};

/** Expires one active watch at or after its expiry (outcome over_your_total when last seen over the total). */
export const expireWatch = async (id: number, now: Date) => {
  const [watch] = await poolSql.$queryRaw<
    { overTotal: boolean }[]
  >`SELECT over_total AS "overTotal" FROM price_watches WHERE id = ${id}`;
  if (!watch) return false;
  return endWatch({
    id,
    event: "expire",
    now,
    outcome: watch.overTotal ? "over_your_total" : "expired",
  });
};

const isPurchase = (body: TPurchaseOutcome["body"]): body is TPurchase => "purchase_id" in body;

type ClaimedWatch = WatchActor & { quoteId: string };

/**
 * Makes (or replays) the purchase of a claimed (executing) watch with its recorded quote and
 * records the answer. Run right after the claim, and again by the recovery sweep for a watch left
 * executing (a crash, or the bank had not answered): the same key replays the same purchase.
 */
export const buyClaimed = async (db: Db, id: number, options: { now: Date }) => {
  const [watch] = await poolSql.$queryRaw<
    (WatchActor & { status: string; quoteId: string | null })[]
  >`
    SELECT id, status::text AS status, client_id AS "clientId", person_id AS "personId", quote_id AS "quoteId" FROM price_watches WHERE id = ${id}`;
  if (!watch || watch.status !== "executing" || !watch.quoteId) return;
  await buy(db, { ...watch, quoteId: watch.quoteId }, options.now);
};

/**
 * The purchase of a claimed watch, through the purchase's steps with the watch's two (ADR 0105):
 * under the person's lock, the watch and its grant must still hold (step 1c, `stillWanted`); a new
 * purchase records its state on the watch in the very transaction that records the bank's answer
 * (step 3b, `recordAnswer`), so the watch and its purchase commit together; a replayed one (a
 * retry after a crash) is recorded from what the purchase holds.
 */
const buy = async (db: Db, watch: ClaimedWatch, now: Date): Promise<Evaluation> => {
  const { id, quoteId } = watch;
  let outcome: TPurchaseOutcome;
  let recorded: { closed: boolean } | undefined;
  try {
    const bought = await buyQuote(
      { db, now, clientId: watch.clientId, personId: watch.personId },
      { quote_id: quoteId, idempotency_key: `pw-${id}-${quoteId}` },
      {
        watch: {
          stillWanted: (sql) => stillClaimed(sql, id, now),
          recordAnswer: async (sql, { purchase, snapshot, checkout }) => {
            const priceCents = snapshot.stores[0]?.lines[0]?.unitPriceCents ?? 0;
            recorded = {
              closed: await recordOnWatch(
                sql,
                id,
                {
                  ...purchase,
                  priceCents,
                  checkoutId: checkout?.id ?? null,
                  checkoutExpiresAt: checkout?.expiresAt ?? null,
                },
                now,
              ),
            };
          },
        },
      },
    );
    outcome = bought.result;
  } catch (error) {
    const appError = toAppError(error);
    // Another run of the same key is in flight (it records the answer), or the quote is unknown.
    if (appError.code === "idempotency_key_in_use") return;
    if (
      appError instanceof AppError &&
      appError.status < 500 &&
      appError.code !== "invalid_request"
    )
      return void (await afterRefusal(id, appError.code, now));
    throw error;
  }
  if (!isPurchase(outcome.body)) return void (await afterRefusal(id, outcome.body.error.code, now));
  if (!recorded) await recordPurchase(id, outcome.body.purchase_id, now);
  else if (recorded.closed) notifyPriceWatchClosed(id);
  // 201: held, the quote's stock is the purchase's.
  return outcome.status === 201 ? "took_stock" : undefined;
};

/**
 * Under the person's lock (the purchase's `underLock`), in one statement: the person still lets the
 * watch's assistant buy (a live grant with purchase:write, the client not revoked: the one rule,
 * hasPurchaseGrantSql), and the watch is still claimed and not expired. A watch whose person
 * disconnected the assistant (or whose grant or client was revoked) after the claim, one a pause ended
 * while its purchase waited, or the recovery sweep's replay of a claim that outlived the watch, buys
 * nothing (review M3). `now` is the claim's time on the first run and the sweep's on a replay.
 */
const stillClaimed = async (sql: Sql, id: number, now: Date) => {
  const [watch] = await sql.$queryRaw<{ live: boolean; granted: boolean }[]>`
    SELECT w.status = 'executing' AND w.expires_at > ${now} AS live, ${hasPurchaseGrantSql(Prisma.sql`w.client_id`, Prisma.sql`w.person_id`, now)} AS granted
    FROM price_watches w WHERE w.id = ${id}`;
  if (watch && !watch.granted) {
    throw new AppError("agent_purchases_unavailable", {
      message:
        "The person no longer lets this assistant buy for them (no live grant with purchase:write, or the assistant was revoked); nothing was bought.",
    });
  }
  if (!watch?.live)
    throw new AppError("quote_expired", {
      message: "The price watch ended or expired before its purchase; nothing was bought.",
    });
};

const afterRefusal = async (id: number, code: string, now: Date) => {
  // A purchase of the recorded quote exists (quote_already_purchased: a replay raced the first run): it is the watch's one purchase.
  const [made] = await poolSql.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM price_watches w JOIN purchases p ON p.quote_id = w.quote_id WHERE w.id = ${id}`;
  if (made) return recordPurchase(id, made.id, now);
  const ended = outcomeOfPurchaseRefusal(code);
  if (ended === "item_sold") return endWatch({ id, event: "item_sold", now });
  if (ended) return endWatch({ id, event: "end", outcome: ended, now });
  // Nothing was bought and it may buy later (price_changed, too_many_purchases): active again, with a new quote next time;
  // a watch whose time ran out meanwhile (a claim replayed by the recovery sweep) then expires.
  const released = await moveWatch(poolSql, {
    id,
    event: "release",
    now,
    data: { quoteId: null, claimedAt: null },
  });
  if (released && released.expiresAt <= now) await expireWatch(id, now);
  return released;
};

/** What recording a purchase on its watch needs: the purchase, its unit price, and the checkout a requires_person answer made. */
type RecordedPurchase = {
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

/**
 * Records a purchase that exists (the recovery sweep, a replay) on its watch, in a transaction of
 * its own; the purchase's state as `recordOnWatch` says.
 */
export const recordPurchase = async (id: number, purchaseId: string, now: Date) => {
  const [purchase] = await poolSql.$queryRaw<RecordedPurchase[]>`
    SELECT p.id, p.status::text AS status, p.reason, p.order_number AS "orderNumber", p.grand_total_cents AS "grandTotalCents",
      p.charges_at AS "chargesAt", p.cancel_until AS "cancelUntil",
      COALESCE((q.snapshot #>> '{stores,0,lines,0,unitPriceCents}')::int, 0) AS "priceCents", c.id AS "checkoutId", c.expires_at AS "checkoutExpiresAt"
    FROM purchases p JOIN quotes q ON q.id = p.quote_id
    LEFT JOIN LATERAL (SELECT id, expires_at FROM checkouts WHERE quote_id = q.id ORDER BY created_at DESC LIMIT 1) c ON true
    WHERE p.id = ${purchaseId}`;
  if (!purchase) throw new Error(`purchase ${purchaseId} not found`);
  if (await sqlTransaction((sql) => recordOnWatch(sql, id, purchase, now)))
    notifyPriceWatchClosed(id);
};

/**
 * Records the purchase's state on the watch, in the caller's transaction: held -> fulfilled
 * (bought, order number, the bought email); requires_person -> needs_you (the checkout link
 * emailed); processing: the purchase is kept on the watch, which stays executing until the bank's
 * answer is known (recovery sweep); refused (the bank never answered, nothing held): ended
 * payment_failed (one purchase per watch). True when this call closed the watch.
 */
const recordOnWatch = async (
  sql: Sql,
  id: number,
  purchase: RecordedPurchase,
  now: Date,
): Promise<boolean> => {
  const { priceCents } = purchase;
  const purchaseId = purchase.id;
  if (purchase.status === "processing") {
    await sql.$executeRaw`UPDATE price_watches SET purchase_id = ${purchaseId} WHERE id = ${id} AND status = 'executing'`;
    return false;
  }
  if (purchase.status === "refused") {
    // The bank never answered and the hold was released: nothing charged, but the watch's one purchase is spent.
    return endWatchIn(sql, {
      id,
      event: "end",
      outcome: "payment_failed",
      now,
      data: { purchaseId },
    });
  }
  if (purchase.status === "requires_person") {
    const { checkoutId } = purchase;
    const watch = await moveWatch(sql, {
      id,
      event: "needs_person",
      now,
      outcome: purchase.reason ?? "card_declined",
      data: { purchaseId, checkoutId },
    });
    if (!watch) return false;
    if (checkoutId && purchase.checkoutExpiresAt) {
      await writeWatchNeedsYouEmail(sql, watch, {
        priceCents,
        reason: purchase.reason ?? "card_declined",
        checkoutUrl: checkoutUrl(checkoutId),
        checkoutExpiresAt: purchase.checkoutExpiresAt,
      });
    }
    return true;
  }
  // held, capturing, paid, or already cancelled by the person from the copy email: it bought.
  const watch = await moveWatch(sql, {
    id,
    event: "bought",
    now,
    data: { purchaseId, orderNumber: purchase.orderNumber },
  });
  if (!watch) return false;
  if (purchase.orderNumber && purchase.chargesAt) {
    await writeWatchBoughtEmail(sql, watch, {
      id: purchaseId,
      orderNumber: purchase.orderNumber,
      grandTotalCents: purchase.grandTotalCents,
      chargesAt: purchase.chargesAt,
      cancelUntil: purchase.cancelUntil,
      priceCents,
    });
  }
  return true;
};

/**
 * Evaluates the active watches on an item that a price change concerns (the price-change handler),
 * oldest first. When one buys the item or finds it sold, the ones left whose size a quote can no
 * longer buy end item_sold together, in one transaction, instead of one quote and one transaction
 * each (a sale sells most watched items to their first watcher).
 */
export const evaluateItemWatches = async (db: Db, itemId: number, options: { now: Date }) => {
  let pending = await readItemWatches(itemId, options.now);
  while (pending.length) {
    const evaluation = await evaluateWatch(db, pending.shift()!, options.now);
    if (!evaluation || !pending.length) continue;
    const sold = await withNothingToBuy(itemId, pending);
    if (!sold.length) continue;
    await endSold(
      sold.map((watch) => watch.id),
      options.now,
    );
    pending = pending.filter((watch) => !sold.includes(watch));
  }
};

/** The watches of `itemId` whose size a quote could not buy now (the quote's own rule, buildQuoteLines; a size gone from the item too). */
const withNothingToBuy = async <T extends { size: string | null }>(
  itemId: number,
  watches: T[],
) => {
  const items = await loadQuotableItems(poolSql, [itemId]);
  return watches.filter((watch) => {
    try {
      return (
        buildQuoteLines([{ item_id: itemId, size: watch.size ?? undefined, quantity: 1 }], items)
          .groups.length === 0
      );
    } catch (error) {
      if (isSoldRefusal(error)) return true;
      throw error;
    }
  });
};
