/**
 * POST /purchases (purchases.create): an assistant buys a quote with the person's saved card,
 * within the person's limits. In three steps (server/purchases/create-purchase.ts), so that no
 * transaction is open while the processor is asked:
 * 1. one short transaction claims the Idempotency-Key, checks in the order of the reference's rules
 *    (what depends on other purchases: prices and stock, both limits, the hourly count, under a lock
 *    on the person's row, so two purchases of one person cannot both fit), writes the purchase
 *    (`processing`, its items reserved) and stages `202 processing` as the key's answer should the
 *    process die before the next step;
 * 2. the processor places the hold (key `pur_x:authorize`), outside any transaction;
 * 3. one short transaction records the bank's answer through the purchase writer and stores the
 *    final answer under the key: 201 held, 202 processing, 402 requires_person with a checkout link.
 * Idempotent per (client, person) and key: every outcome but too_many_purchases and the checks
 * before the key (token, switch, unknown quote) is stored and replayed byte for byte; a duplicate
 * while the first is running is 409 idempotency_key_in_use with Retry-After.
 */
import { toMoney } from "../../domain/money";
import { AppError, errorBody } from "../../errors";
import { notifyCheckoutCreated } from "../../jobs/events";
import { paymentProvider } from "../../payments";
import type { Db, Tx } from "../../db";
import { isAddressOnFile } from "../../purchases/address-on-file";
import { createPurchaseWithHold, type NewPurchase } from "../../purchases/create-purchase";
import { assistantAllowedToBuy, grantingPerson } from "../../purchases/purchasing-agent";
import { overSpendingLimit, spendingRoom, spendingSettingsAllowingPurchase } from "../../purchases/spending-room";
import { scopeOf } from "../../api/operations";
import { scopedProcedure } from "../../trpc/procedures";
import { readSavedCard } from "../account/saved-card.queries";
import { insertCheckout } from "../checkout/create-session";
import { reserve } from "../checkout/reservations";
import type { QuoteSnapshot } from "../checkout/quote-snapshot";
import { snapshotTotals } from "../checkout/quote-snapshot";
import { answerExisting, claimIdempotencyKey, finishIdempotent, type IdempotencyKeyRef, requestHash, stageIdempotentOutcome, storeIdempotentRefusal } from "../shared/idempotency";
import { purchaseErrorMessage, toWirePurchase } from "./purchase-view";
import { purchasesPerHour, type TPurchaseOutcome, ZCreatePurchaseInput } from "./purchase.schema";
import { z } from "zod";

const hourMs = 3_600_000;

/** quote_already_purchased when a purchase of the quote exists. */
const assertQuoteNotBought = async (db: Pick<Tx, "purchase">, quoteId: string) => {
  if (await db.purchase.findUnique({ where: { quoteId }, select: { id: true } })) {
    throw new AppError("quote_already_purchased", { message: "This quote was already bought; create a new quote." });
  }
};

/** Rules that read other purchases, prices and stock: run after the quote's rules, under the person's row lock, in the insert transaction. */
const lockedChecks = async (tx: Tx, options: { personId: string; snapshot: QuoteSnapshot; grandTotalCents: number; now: Date; settings: Awaited<ReturnType<typeof spendingSettingsAllowingPurchase>> }) => {
  const { personId, snapshot, grandTotalCents, now, settings } = options;
  const lines = snapshot.stores.flatMap((store) => store.lines);
  // Prices first (a repriced item needs a new quote), then stock, reserved under row locks in id order.
  const items = await tx.item.findMany({ where: { id: { in: lines.map((line) => line.itemId) } }, select: { id: true, priceCents: true, status: true } });
  const priceOf = new Map(items.filter((item) => item.status !== "removed").map((item) => [item.id, item.priceCents]));
  const itemsOf = (wanted: typeof lines) => wanted.map((line) => ({ item_id: line.itemId, size: line.size }));
  const unpriced = lines.filter((line) => !priceOf.has(line.itemId));
  if (unpriced.length) throw new AppError("price_unavailable", { message: "An item of the quote has no price now; create a new quote.", details: { items: itemsOf(unpriced) } });
  const repriced = lines.filter((line) => priceOf.get(line.itemId) !== line.unitPriceCents);
  if (repriced.length) throw new AppError("price_changed", { message: "A price changed since the quote; create a new quote.", details: { items: itemsOf(repriced) } });
  const reserved = await reserve(tx, lines);
  const missing = lines.filter((line) => !reserved.has(line.variantId));
  if (missing.length) throw new AppError("item_unavailable", { message: "Some items were bought or taken since the quote; create a new quote.", details: { items: itemsOf(missing) } });
  const room = await spendingRoom(tx, { personId, perOrderCents: settings.limitPerOrderCents!, per30DaysCents: settings.limitPer30DaysCents!, now });
  const over = overSpendingLimit(grandTotalCents, room);
  if (over) throw new AppError("over_spending_limit", { message: over.message, details: { limit: toMoney(over.limitCents), room: toMoney(over.roomCents) } });
  const recent = await tx.purchase.findMany({ where: { personId, createdAt: { gt: new Date(now.getTime() - hourMs) } }, select: { createdAt: true }, orderBy: { createdAt: "asc" } });
  if (recent.length >= purchasesPerHour) {
    const retryAfter = Math.max(1, Math.ceil((recent[0].createdAt.getTime() + hourMs - now.getTime()) / 1000));
    throw new AppError("too_many_purchases", { message: `At most ${purchasesPerHour} purchases per person per hour; retry after the seconds in Retry-After.`, retryAfter });
  }
};

/** Outcomes stored under the key: every purchase refusal but the rate limit (a retry later must run). */
const isStoredRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && error.code !== "too_many_purchases" && [403, 409].includes(error.status) && error.code !== "idempotency_key_in_use";

/** Thrown inside the first transaction when another request holds or answered the key: nothing is written. */
class KeyTaken extends Error {}

/** The key's record keeps the outcome (HTTP status and body) under status 200: a 402 body is a Purchase, not an error to rebuild. */
const storedAs = (outcome: TPurchaseOutcome) => ({ status: 200, body: outcome });

const refusalOutcome = (error: AppError): TPurchaseOutcome => ({ status: error.status, body: errorBody(error) as TPurchaseOutcome["body"] });

type Buyer = { db: Db; now: Date; clientId: string; personId: string };

/**
 * The purchase use case behind the procedure, for one assistant (client) and person. `testHooks`
 * lets a test stop the process between the hold and its record (never set in service).
 */
export const purchaseQuote = async (buyer: Buyer, input: z.output<typeof ZCreatePurchaseInput>, testHooks: Pick<NewPurchase, "afterAuthorize"> = {}) => {
  const { db, now, clientId, personId } = buyer;
  const assistant = await assistantAllowedToBuy(db, clientId);
  const quote = await db.quote.findFirst({ where: { id: input.quote_id, clientId, personId }, select: { id: true, expiresAt: true, snapshot: true, address: true } });
  if (!quote) throw new AppError("not_found", { message: `No quote ${input.quote_id}.` });
  const snapshot = quote.snapshot as unknown as QuoteSnapshot;
  const { idempotency_key: key, ...request } = input;
  const ref: IdempotencyKeyRef = { scope: `${clientId}:${personId}`, operation: "purchases.create", key };
  const hash = requestHash(request);
  // Read before the first transaction to build the hold's input; every refusal they lead to is decided inside it, after the claim.
  const person = await db.person.findUniqueOrThrow({ where: { id: personId }, select: { email: true, shippingAddress: true } });
  const card = await readSavedCard(db, personId);
  const grandTotalCents = snapshotTotals(snapshot, {}).grandTotalCents;

  /** The rules of the reference about the quote, the person and the card, in its order; the person's settings when they allow the purchase. */
  const checkQuote = async (tx: Tx) => {
    if (quote.expiresAt <= now) throw new AppError("quote_expired", { message: "The quote has expired; create a new quote." });
    // Read under the person's lock: a concurrent purchase of this quote has committed by now (the unique index is the backstop).
    await assertQuoteNotBought(tx, quote.id);
    const linkStores = snapshot.stores.filter((store) => store.agentCheckout !== "direct");
    if (linkStores.length) {
      throw new AppError("store_requires_checkout_link", { message: "A store of this quote sells only through a checkout link; use POST /checkout/sessions.", details: { stores: linkStores.map((store) => store.slug) } });
    }
    if (snapshot.destination === "QC") throw new AppError("not_available_in_market", { message: "Assistant purchases do not deliver to Quebec; use a checkout link." });
    if (snapshot.stores.length === 0) throw new AppError("item_unavailable", { message: "None of the quote's items can be bought; create a new quote." });
    if (!isAddressOnFile(quote.address, person.shippingAddress)) {
      throw new AppError("address_not_on_file", { message: "The quote's address is not the one saved in the person's account; quote for the saved address (address:read)." });
    }
    const settings = await spendingSettingsAllowingPurchase(tx, personId);
    if (!card) throw new AppError("no_saved_card", { message: "The person has no saved card." });
    return settings;
  };

  /** The final answer from the purchase as the answer's transaction recorded it. */
  let checkoutId: string | null = null;
  const answerOf = async (tx: Tx, purchase: Parameters<typeof toWirePurchase>[0] & { reason: string | null }): Promise<TPurchaseOutcome> => {
    if (purchase.status === "held" || purchase.status === "capturing") return { status: 201, body: toWirePurchase(purchase, null) };
    if (purchase.status !== "requires_person") return { status: 202, body: toWirePurchase(purchase, null) };
    // Nothing was charged: the move to requires_person gave the reservation back (movePurchase).
    if (purchase.reason === "payment_method_not_found") {
      return refusalOutcome(new AppError("card_not_on_this_account", { message: purchaseErrorMessage("card_not_on_this_account") }));
    }
    // requires_person: a real checkout of this quote for the person to pay themselves.
    const checkout = await insertCheckout(tx, { quoteId: quote.id, snapshot, owner: { clientId, personId }, email: person.email, firstName: null, lastName: null, selections: {}, now });
    checkoutId = checkout.id;
    return { status: 402, body: toWirePurchase(purchase, checkout) };
  };

  let outcome: TPurchaseOutcome | null = null;
  try {
    await createPurchaseWithHold(db, paymentProvider(db), {
      clientId, assistant, personId, email: person.email, quoteId: quote.id, grandTotalCents,
      method: { type: "saved", customerId: card?.processorCustomerId ?? "", paymentMethodId: card?.paymentMethodId ?? "" }, cardLast4: card?.last4 ?? null, now,
      beforeInsert: async (tx) => {
        if (!(await claimIdempotencyKey(tx, ref, hash, now))) throw new KeyTaken();
        // One purchase of a person at a time from here to the commit: two cannot both fit the 30-day limit.
        await tx.$queryRaw`SELECT id FROM persons WHERE id = ${personId} FOR UPDATE`;
        const settings = await checkQuote(tx);
        await lockedChecks(tx, { personId, snapshot, grandTotalCents, now, settings });
      },
      // A crash before the answer is recorded leaves this: the purchase is processing, and the reconciliation settles it.
      afterInsert: (tx, purchase) => stageIdempotentOutcome(tx, ref, now, storedAs({ status: 202, body: toWirePurchase(purchase, null) })),
      withAnswer: async (tx, purchase) => {
        outcome = await answerOf(tx, purchase);
        await finishIdempotent(tx, ref, now, storedAs(outcome));
      },
      ...testHooks,
    });
  } catch (error) {
    if (error instanceof KeyTaken) return answerExisting<TPurchaseOutcome>(db, ref, hash, now);
    if (!isStoredRefusal(error)) throw error;
    // The first transaction rolled back with its claim: store the refusal under the key now.
    const refused = refusalOutcome(error);
    await storeIdempotentRefusal(db, ref, hash, now, storedAs(refused));
    return { result: refused, replayed: false };
  }
  if (checkoutId) notifyCheckoutCreated(checkoutId);
  return { result: outcome!, replayed: false };
};

export const createPurchase = scopedProcedure(scopeOf("POST /api/v1/purchases"))
  .input(ZCreatePurchaseInput)
  .output(z.object({ outcome: z.custom<TPurchaseOutcome>(), replayed: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const { clientId, personId } = grantingPerson(ctx.actor);
    const { result, replayed } = await purchaseQuote({ db: ctx.db, now: ctx.clock.now(), clientId, personId }, input);
    return { outcome: result, replayed };
  });
