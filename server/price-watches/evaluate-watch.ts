/**
 * Evaluating a price watch against the item's live price, and buying through the same path as
 * POST /purchases. The evaluator acts as the assistant that set the watch, for its person (a
 * server-side caller with that client and person), so the purchase is made by the very code an
 * assistant's calls run: a fresh quote for the saved address (the POST /checkout/quotes procedure),
 * then POST /purchases' use case `purchaseQuote` with it (key claimed and purchase written in one
 * short transaction, the hold asked outside any transaction, the answer recorded in a second; 24-hour
 * charge, copy email with cancel link, limits, the direct rule, idempotency). Exactly once:
 * - the purchase starts only after `claim` moved the watch active -> executing, one conditional
 *   update before expires_at, so of two evaluators (or two events) at most one goes on;
 * - the Idempotency-Key is the watch and its quote (`pw-<id>-<quote>`), and the quote is recorded
 *   with the claim, so a retry after a crash replays the same purchase rather than making another;
 * - a refusal that makes no purchase ends the watch or releases it to active (price_changed: the
 *   newer price change evaluates it again).
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../db";
import { outcomeOfPurchaseRefusal } from "../domain/price-watch-state";
import { AppError } from "../errors";
import { toAppError } from "../http/respond";
import { checkoutUrl } from "../routers/checkout/checkout-view";
import { type QuoteSnapshot, snapshotTotals } from "../routers/checkout/quote-snapshot";
import { purchaseQuote } from "../routers/purchases/create-purchase";
import type { TPurchase, TPurchaseOutcome } from "../routers/purchases/purchase.schema";
import { createCaller } from "../trpc/caller";
import { createInnerContext } from "../trpc/context";
import { notifyPriceWatchClosed } from "../jobs/events";
import { emailedWatch, endWatch, moveWatch } from "./watch-writer";
import { standingOutcome } from "./watch-standing";
import { writeWatchBoughtEmail, writeWatchNeedsYouEmail } from "./watch-emails";

type WatchActor = { id: number; clientId: string; personId: string };

/** The assistant that set the watch, acting for its person, with the scope quoting needs (the purchase goes through `purchaseQuote`). */
const callerFor = (db: Db, watch: WatchActor, now: Date) =>
  createCaller(
    createInnerContext({
      db,
      clock: { now: () => now },
      requestId: `price-watch-${watch.id}-${randomUUID()}`,
      actor: { kind: "client", clientId: watch.clientId, tokenId: `price-watch:${watch.id}`, scopes: ["checkout:write"], personId: watch.personId },
    }),
  );

const watchSelect = {
  id: true, status: true, clientId: true, personId: true, itemId: true, size: true, maxPriceCents: true, maxTotalCents: true, expiresAt: true, overTotal: true,
  quoteId: true, item: { select: { priceCents: true, status: true } },
} as const;

/** The saved address as a quote's shipping_address (the purchase path compares it with the saved one). */
const savedAddress = async (db: Db, personId: string) => {
  const row = await db.shippingAddress.findUnique({ where: { personId } });
  return row && { name: row.name, line1: row.line1, line2: row.line2, city: row.city, province: row.province, postal_code: row.postalCode, country: row.country, phone: row.phone };
};

/** A fresh quote for the watch's item and size at the saved address: its id, unit price and total; null when nothing can be bought. */
const freshQuote = async (db: Db, watch: WatchActor & { itemId: number; size: string | null }, now: Date) => {
  const address = await savedAddress(db, watch.personId);
  if (!address) return { ended: "address_not_on_file" as const };
  try {
    const quote = await callerFor(db, watch, now).checkout.createQuote({ items: [{ item_id: watch.itemId, size: watch.size ?? undefined, quantity: 1 }], shipping_address: address });
    const row = await db.quote.findUniqueOrThrow({ where: { id: quote.quote_id }, select: { snapshot: true } });
    const snapshot = row.snapshot as unknown as QuoteSnapshot;
    const line = snapshot.stores.flatMap((store) => store.lines).find((candidate) => candidate.itemId === watch.itemId);
    if (!line) return { ended: "item_sold" as const };
    return { quoteId: quote.quote_id, unitPriceCents: line.unitPriceCents, grandTotalCents: snapshotTotals(snapshot, {}).grandTotalCents };
  } catch (error) {
    const appError = toAppError(error);
    // Nothing left to buy (sold, reserved, its store stopped selling), or its size is gone.
    if (appError.code === "nothing_to_buy" || appError.code === "invalid_request") return { ended: "item_sold" as const };
    throw error;
  }
};

/**
 * Evaluates one active watch now: ends it if it can no longer buy, stays active when the price or
 * the total is over, otherwise claims it and buys. Safe to run any number of times, concurrently.
 */
export const evaluateWatch = async (db: Db, id: number, options: { now: Date }) => {
  const { now } = options;
  const watch = await db.priceWatch.findUnique({ where: { id }, select: watchSelect });
  if (!watch || watch.status !== "active") return;
  if (watch.expiresAt <= now) return void (await expireWatch(db, id, now));
  if (watch.item.status !== "active") return void (await endWatch(db, { id, event: "item_sold", now }));
  if (watch.item.priceCents > watch.maxPriceCents) {
    if (watch.overTotal) await db.priceWatch.updateMany({ where: { id, status: "active" }, data: { overTotal: false } });
    return;
  }
  const stop = await standingOutcome(db, watch, now);
  if (stop) return void (await endWatch(db, { id, event: "end", outcome: stop, now }));
  const quote = await freshQuote(db, watch, now);
  if ("ended" in quote) {
    return void (await endWatch(db, quote.ended === "item_sold" ? { id, event: "item_sold", now } : { id, event: "end", outcome: quote.ended, now }));
  }
  if (quote.unitPriceCents > watch.maxPriceCents) return; // the price rose again meanwhile; its own event re-evaluates
  if (quote.grandTotalCents > watch.maxTotalCents) {
    // Price right, total over: not charged, stays active; expiring so ends it over_your_total.
    await db.priceWatch.updateMany({ where: { id, status: "active" }, data: { overTotal: true } });
    return;
  }
  if (!(await moveWatch(db, { id, event: "claim", now, data: { quoteId: quote.quoteId, claimedAt: now } }))) return;
  await buyClaimed(db, id, { now });
};

/** Expires one active watch at or after its expiry (outcome over_your_total when last seen over the total). */
export const expireWatch = async (db: Db, id: number, now: Date) => {
  const watch = await db.priceWatch.findUnique({ where: { id }, select: { overTotal: true } });
  if (!watch) return false;
  return endWatch(db, { id, event: "expire", now, outcome: watch.overTotal ? "over_your_total" : "expired" });
};

const isPurchase = (body: TPurchaseOutcome["body"]): body is TPurchase => "purchase_id" in body;

/**
 * Makes (or replays) the purchase of a claimed (executing) watch with its recorded quote and
 * records the answer. Run right after the claim, and again by the recovery sweep for a watch left
 * executing (a crash, or the bank had not answered): the same key replays the same purchase.
 */
export const buyClaimed = async (db: Db, id: number, options: { now: Date }) => {
  const { now } = options;
  const watch = await db.priceWatch.findUnique({ where: { id }, select: { id: true, status: true, clientId: true, personId: true, quoteId: true, purchaseId: true } });
  if (!watch || watch.status !== "executing" || !watch.quoteId) return;
  let outcome: TPurchaseOutcome;
  try {
    const bought = await purchaseQuote({ db, now, clientId: watch.clientId, personId: watch.personId }, { quote_id: watch.quoteId, idempotency_key: `pw-${watch.id}-${watch.quoteId}` });
    outcome = bought.result;
  } catch (error) {
    const appError = toAppError(error);
    // Another run of the same key is in flight (it records the answer), or the quote is unknown.
    if (appError.code === "idempotency_key_in_use") return;
    if (appError instanceof AppError && appError.status < 500 && appError.code !== "invalid_request") return void (await afterRefusal(db, id, appError.code, now));
    throw error;
  }
  if (!isPurchase(outcome.body)) return void (await afterRefusal(db, id, outcome.body.error.code, now));
  await recordPurchase(db, id, outcome.body.purchase_id, now);
};

const afterRefusal = async (db: Db, id: number, code: string, now: Date) => {
  // A purchase of the recorded quote exists (quote_already_purchased: a replay raced the first run): it is the watch's one purchase.
  const watch = await db.priceWatch.findUnique({ where: { id }, select: { quoteId: true } });
  const made = watch?.quoteId ? await db.purchase.findUnique({ where: { quoteId: watch.quoteId }, select: { id: true } }) : null;
  if (made) return recordPurchase(db, id, made.id, now);
  const ended = outcomeOfPurchaseRefusal(code);
  if (ended === "item_sold") return endWatch(db, { id, event: "item_sold", now });
  if (ended) return endWatch(db, { id, event: "end", outcome: ended, now });
  // Nothing was bought and it may buy later (price_changed, too_many_purchases): active again, with a new quote next time.
  return moveWatch(db, { id, event: "release", now, data: { quoteId: null, claimedAt: null } });
};

/**
 * Records the purchase's state on the watch: held -> fulfilled (bought, order number, the bought
 * email); requires_person -> needs_you (the checkout link emailed); processing: the purchase is
 * kept on the watch, which stays executing until the bank's answer is known (recovery sweep);
 * refused (the bank never answered, nothing held): ended payment_failed (one purchase per watch).
 */
export const recordPurchase = async (db: Db, id: number, purchaseId: string, now: Date) => {
  const purchase = await db.purchase.findUniqueOrThrow({
    where: { id: purchaseId },
    select: { id: true, status: true, reason: true, orderNumber: true, grandTotalCents: true, chargesAt: true, cancelUntil: true, quote: { select: { snapshot: true, checkouts: { orderBy: { createdAt: "desc" }, take: 1, select: { id: true, expiresAt: true } } } } },
  });
  const priceCents = (purchase.quote.snapshot as unknown as QuoteSnapshot).stores.flatMap((store) => store.lines)[0]?.unitPriceCents ?? 0;
  if (purchase.status === "processing") {
    await db.priceWatch.updateMany({ where: { id, status: "executing" }, data: { purchaseId } });
    return;
  }
  if (purchase.status === "refused") {
    // The bank never answered and the hold was released: nothing charged, but the watch's one purchase is spent.
    await endWatch(db, { id, event: "end", outcome: "payment_failed", now, data: { purchaseId } });
    return;
  }
  const moved = await db.$transaction(async (tx) => {
    const watch = await emailedWatch(tx, id);
    if (purchase.status === "requires_person") {
      const checkout = purchase.quote.checkouts[0];
      if (!(await moveWatch(tx, { id, event: "needs_person", now, outcome: purchase.reason ?? "card_declined", data: { purchaseId, checkoutId: checkout?.id ?? null } }))) return false;
      if (checkout) {
        await writeWatchNeedsYouEmail(tx, watch, { priceCents, reason: purchase.reason ?? "card_declined", checkoutUrl: checkoutUrl(checkout.id), checkoutExpiresAt: checkout.expiresAt });
      }
      return true;
    }
    // held, capturing, paid, or already cancelled by the person from the copy email: it bought.
    if (!(await moveWatch(tx, { id, event: "bought", now, data: { purchaseId, orderNumber: purchase.orderNumber } }))) return false;
    if (purchase.orderNumber && purchase.chargesAt) {
      await writeWatchBoughtEmail(tx, watch, { id: purchase.id, orderNumber: purchase.orderNumber, grandTotalCents: purchase.grandTotalCents, chargesAt: purchase.chargesAt, cancelUntil: purchase.cancelUntil, priceCents });
    }
    return true;
  });
  if (moved) notifyPriceWatchClosed(id);
};

/**
 * Evaluates the active watches on an item that the price change concerns (the price-change
 * handler), oldest first: those the live price is within, and those last seen over their total
 * (to clear that mark when the price rises again). The others have nothing to do.
 */
export const evaluateItemWatches = async (db: Db, itemId: number, options: { now: Date }) => {
  const item = await db.item.findUnique({ where: { id: itemId }, select: { priceCents: true, status: true } });
  if (!item) return;
  const concerned = item.status === "active" ? { OR: [{ maxPriceCents: { gte: item.priceCents } }, { overTotal: true }] } : {};
  const watches = await db.priceWatch.findMany({ where: { itemId, status: "active", ...concerned }, orderBy: { id: "asc" }, select: { id: true } });
  for (const watch of watches) await evaluateWatch(db, watch.id, options);
};
