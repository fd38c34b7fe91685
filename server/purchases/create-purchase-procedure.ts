/**
 * POST /purchases (purchases.create): an assistant buys a quote with the person's saved card,
 * within the person's limits. In three steps (server/purchases/create-purchase.ts), so that no
 * transaction is open while the processor is asked:
 * 1. one short transaction claims the Idempotency-Key, reserves the items, stages `202 processing`
 *    as the key's answer should the process die before the next step, writes the purchase
 *    (`processing`) and its payment, and then checks in the order of the reference's rules (what
 *    depends on other purchases: prices and stock, both limits, the hourly count, under a lock on
 *    the person's row, so two purchases of one person cannot both fit; the saved card is read under
 *    that lock too, which its removal takes, and a price watch's purchase checks the person's grant
 *    and the watch there (`underLock`, review M3); the lock is taken last, so it is held for three
 *    statements, the payment's insert among them, and the commit); a refusal rolls it all back but the key's claim
 *    (a savepoint after the claim), and stores the refusal under the key in the same transaction;
 * 2. the processor places the hold (key `pur_x:authorize`), outside any transaction;
 * 3. one short transaction records the bank's answer through the purchase writer and stores the
 *    final answer under the key: 201 held, 202 processing, 402 requires_person with a checkout link.
 * Idempotent per (client, person) and key: every outcome but too_many_purchases and the checks
 * before the key (token, switch, unknown quote) is stored and replayed byte for byte; a duplicate
 * while the first is running is 409 idempotency_key_in_use with Retry-After.
 */
import { toMoney } from "../core/money";
import { AppError, errorBody } from "../core/errors";
import { notifyCheckoutCreated } from "../platform/jobs/events";
import { paymentProvider } from "../payments";
import type { Db, Tx } from "../platform/db";
import { isAddressOnFile } from "./address-on-file";
import { type AnsweredRow, createPurchaseWithHold, type NewPurchase } from "./create-purchase";
import { agentPurchasesUnavailable, grantingPerson } from "./purchasing-agent";
import {
  overSpendingLimit,
  roomAfter,
  settingsAllowingPurchase,
  spentIn30DaysSql,
} from "./spending-room";
import { agentPurchasesOn, type PurchaseSwitchClient } from "./agent-purchases";
import { rawPool } from "../platform/db";
import { anyOf, type Sql } from "../platform/sql";
import { Prisma } from "../generated/prisma/client";
import type { SpendingSettings } from "../core/spending-limits";
import { spendingColumnsSql, type SpendingRow, spendingSettingsOf } from "../accounts";
import { procedure } from "../platform/trpc/procedures";
import { insertCheckout } from "../checkout";
import { reserve } from "../checkout";
import type { QuoteSnapshot } from "../checkout";
import { snapshotTotals } from "../checkout";
import {
  answerExisting,
  claimIdempotencyKey,
  finishIdempotent,
  type IdempotencyKeyRef,
  requestHash,
  stageIdempotentOutcome,
  storeIdempotentRefusal,
} from "../platform/idempotency";
import { purchaseErrorMessage, toWirePurchase } from "./purchase-view";
import { purchasesPerHour, type TPurchaseOutcome, ZCreatePurchaseInput } from "./purchase.schema";
import { z } from "zod";

const hourMs = 3_600_000;

/**
 * What the purchase needs before its transaction, in one statement: the assistant, the quote (null
 * unless this client's for this person), the person's email and saved address. Not the saved card:
 * it is read under the person's lock (readLockedState), review L14.
 */
type PurchaseContext = PurchaseSwitchClient & {
  name: string;
  quoteId: string | null;
  expiresAt: Date;
  snapshot: QuoteSnapshot;
  address: unknown;
  email: string;
  shippingAddress: Parameters<typeof isAddressOnFile>[1];
};

const readPurchaseContext = async (
  clientId: string,
  personId: string,
  quoteId: string,
): Promise<PurchaseContext | undefined> => {
  const { rows } = await rawPool().query<PurchaseContext>({
    name: "purchase-context",
    text: `SELECT c.kind::text AS kind, c.name, c.purchases_enabled AS "purchasesEnabled", p.email,
        q.id AS "quoteId", q.expires_at AS "expiresAt", q.snapshot, q.address,
        (SELECT json_build_object('name', a.name, 'line1', a.line1, 'line2', a.line2, 'city', a.city, 'province', a.province, 'postalCode', a.postal_code, 'country', a.country)
           FROM shipping_addresses a WHERE a.person_id = p.id) AS "shippingAddress"
      FROM api_clients c JOIN persons p ON p.id = $2
      LEFT JOIN quotes q ON q.id = $3 AND q.client_id = c.id AND q.person_id = p.id
      WHERE c.id = $1`,
    values: [clientId, personId, quoteId],
  });
  return rows[0];
};

type LockedState = SpendingRow & {
  spentCents: number;
  lastHourCount: number;
  lastHourFirst: Date | null;
  prices: { id: number; priceCents: number }[];
  /** The saved card, read under the lock that its removal takes too (review L14). */
  card: { processorCustomerId: string; paymentMethodId: string; last4: string } | null;
};

/**
 * Everything the rules read that other purchases change, in one statement, after the person's row
 * is locked (a statement of its own: a statement's snapshot is taken when it starts, so the lock
 * must be held before these are read, or a purchase committed during the wait would be missed).
 * This purchase is already written, uncommitted, in the same transaction: it is left out.
 * Another purchase of the same quote cannot be: the quote's unique index made this one's insert
 * wait for it and fail (quote_already_purchased).
 * FOR NO KEY UPDATE: it serialises purchases of the person (and a change of their limits, an
 * UPDATE of the row) without waiting on the foreign-key checks of rows that only refer to the
 * person (an order, a quote being written), which FOR UPDATE would queue behind.
 */
/**
 * The hourly count leaves out purchases the processor refused before any bank saw them (review M4:
 * a rolled key, a saved card Stripe no longer has): nothing was tried on the card.
 */
const reachedTheBank = Prisma.sql`(reason IS NULL OR reason NOT IN ('payment_method_not_found', 'processor_refused'))`;

const readLockedState = async (
  sql: Sql,
  options: { personId: string; purchaseId: string; itemIds: number[]; now: Date },
) => {
  const { personId, purchaseId, itemIds, now } = options;
  await sql.$queryRaw`SELECT id FROM persons WHERE id = ${personId} FOR NO KEY UPDATE`;
  const hourAgo = new Date(now.getTime() - hourMs);
  const [state] = await sql.$queryRaw<LockedState[]>`
    SELECT ${spendingColumnsSql},
      ${spentIn30DaysSql(personId, now, purchaseId)} AS "spentCents",
      (SELECT count(*)::int FROM purchases WHERE person_id = ${personId} AND created_at > ${hourAgo} AND id <> ${purchaseId} AND ${reachedTheBank}) AS "lastHourCount",
      (SELECT min(created_at) FROM purchases WHERE person_id = ${personId} AND created_at > ${hourAgo} AND id <> ${purchaseId} AND ${reachedTheBank}) AS "lastHourFirst",
      (SELECT COALESCE(json_agg(json_build_object('id', i.id, 'priceCents', i.price_cents)), '[]'::json)
         FROM items i WHERE ${anyOf(Prisma.sql`i.id`, itemIds, "int")} AND i.status::text <> 'removed') AS prices,
      (SELECT json_build_object('processorCustomerId', s.processor_customer_id, 'paymentMethodId', s.payment_method_id, 'last4', s.last4)
         FROM saved_cards s WHERE s.person_id = p.id) AS card
    FROM persons p WHERE p.id = ${personId}`;
  return state;
};

/**
 * Rules that read other purchases, prices and stock, in the reference's order, under the person's
 * row lock; `reserved` is what the transaction reserved of the quote's lines before taking it.
 */
const lockedChecks = (options: {
  state: LockedState;
  snapshot: QuoteSnapshot;
  reserved: Map<number, number>;
  grandTotalCents: number;
  now: Date;
  settings: SpendingSettings;
}) => {
  const { state, snapshot, reserved, grandTotalCents, now, settings } = options;
  const lines = snapshot.stores.flatMap((store) => store.lines);
  // Prices first (a repriced item needs a new quote), then stock.
  const priceOf = new Map(state.prices.map((item) => [item.id, item.priceCents]));
  const itemsOf = (wanted: typeof lines) =>
    wanted.map((line) => ({ item_id: line.itemId, size: line.size }));
  const unpriced = lines.filter((line) => !priceOf.has(line.itemId));
  if (unpriced.length)
    throw new AppError("price_unavailable", {
      message: "An item of the quote has no price now; create a new quote.",
      details: { items: itemsOf(unpriced) },
    });
  const repriced = lines.filter((line) => priceOf.get(line.itemId) !== line.unitPriceCents);
  if (repriced.length)
    throw new AppError("price_changed", {
      message: "A price changed since the quote; create a new quote.",
      details: { items: itemsOf(repriced) },
    });
  const missing = lines.filter((line) => !reserved.has(line.variantId));
  if (missing.length)
    throw new AppError("item_unavailable", {
      message: "Some items were bought or taken since the quote; create a new quote.",
      details: { items: itemsOf(missing) },
    });
  const room = roomAfter(state.spentCents, {
    perOrderCents: settings.limitPerOrderCents!,
    per30DaysCents: settings.limitPer30DaysCents!,
  });
  const over = overSpendingLimit(grandTotalCents, room);
  if (over)
    throw new AppError("over_spending_limit", {
      message: over.message,
      details: { limit: toMoney(over.limitCents), room: toMoney(over.roomCents) },
    });
  if (state.lastHourCount >= purchasesPerHour) {
    const retryAfter = Math.max(
      1,
      Math.ceil((state.lastHourFirst!.getTime() + hourMs - now.getTime()) / 1000),
    );
    throw new AppError("too_many_purchases", {
      message: `At most ${purchasesPerHour} purchases per person per hour; retry after the seconds in Retry-After.`,
      retryAfter,
    });
  }
};

/** Outcomes stored under the key: every purchase refusal but the rate limit (a retry later must run). */
const isStoredRefusal = (error: unknown): error is AppError =>
  error instanceof AppError &&
  error.code !== "too_many_purchases" &&
  [403, 409].includes(error.status) &&
  error.code !== "idempotency_key_in_use";

/** Why the checkout of a declined purchase could not be made, in POST /purchases' codes (the checkout's nothing_to_buy and quote_expired for a price are not among them). */
const checkoutRefusal = (error: AppError, declineCode: string | null) => {
  const code =
    error.code === "quote_expired"
      ? "price_changed"
      : error.code === "nothing_to_buy"
        ? "item_unavailable"
        : error.code;
  const message = `The bank did not hold the saved card (${declineCode ?? "card_declined"}), and no checkout could be made for the person to pay: ${error.message} Nothing was charged.`;
  return new AppError(code, { message, details: error.options.details });
};

/** Thrown inside the first transaction when another request holds or answered the key: nothing is written. */
class KeyTaken extends Error {}

/** The key's record keeps the outcome (HTTP status and body) under status 200: a 402 body is a Purchase, not an error to rebuild. */
const storedAs = (outcome: TPurchaseOutcome) => ({ status: 200, body: outcome });

const refusalOutcome = (error: AppError): TPurchaseOutcome => ({
  status: error.status,
  body: errorBody(error) as TPurchaseOutcome["body"],
});

type Buyer = { db: Db; now: Date; clientId: string; personId: string };

/** The purchase as its answer's transaction recorded it, with its quote and the checkout a requires_person answer made. */
type RecordedAnswer = {
  purchase: AnsweredRow;
  snapshot: QuoteSnapshot;
  checkout: { id: string; expiresAt: Date } | null;
};

type PurchaseHooks = Pick<NewPurchase, "afterAuthorize"> & {
  /**
   * Runs in the transaction that records the bank's answer, after the key's answer is stored: what
   * the caller records of the purchase commits with it (a price watch's fulfilment). Not run when
   * the key's stored answer is replayed.
   */
  onAnswer?: (sql: Sql, answer: RecordedAnswer) => Promise<void>;
  /**
   * Runs under the person's lock, after its state is read: what the caller must still hold for the
   * purchase to go on (a price watch: the person's grant to its assistant, and the watch still
   * executing and not expired, review M3); it throws the refusal. POST /purchases sets none: its
   * token, grant and client were checked at the edge for this very request.
   */
  underLock?: (sql: Sql) => Promise<void>;
};

/**
 * The purchase use case behind the procedure, for one assistant (client) and person. `hooks.afterAuthorize`
 * lets a test stop the process between the hold and its record (never set in service).
 */
export const purchaseQuote = async (
  buyer: Buyer,
  input: z.output<typeof ZCreatePurchaseInput>,
  hooks: PurchaseHooks = {},
) => {
  const { onAnswer, underLock, ...testHooks } = hooks;
  const { db, now, clientId, personId } = buyer;
  const context = await readPurchaseContext(clientId, personId, input.quote_id);
  if (!context || !agentPurchasesOn(context)) throw agentPurchasesUnavailable();
  if (!context.quoteId) throw new AppError("not_found", { message: `No quote ${input.quote_id}.` });
  const quote = { id: context.quoteId, expiresAt: context.expiresAt, address: context.address };
  const { snapshot, email, name: assistant } = context;
  const { idempotency_key: key, ...request } = input;
  const ref: IdempotencyKeyRef = {
    scope: `${clientId}:${personId}`,
    operation: "purchases.create",
    key,
  };
  const hash = requestHash(request);
  const grandTotalCents = snapshotTotals(snapshot, {}).grandTotalCents;

  /**
   * The rules of the reference about the quote, the person and the card, in its order after the
   * first two (quote_expired, checked first; quote_already_purchased, the purchase's insert); the
   * person's settings when they allow the purchase.
   */
  const checkQuote = (state: LockedState) => {
    const linkStores = snapshot.stores.filter((store) => store.agentCheckout !== "direct");
    if (linkStores.length) {
      throw new AppError("store_requires_checkout_link", {
        message:
          "A store of this quote sells only through a checkout link; use POST /checkout/sessions.",
        details: { stores: linkStores.map((store) => store.slug) },
      });
    }
    if (snapshot.destination === "QC")
      throw new AppError("not_available_in_market", {
        message: "Assistant purchases do not deliver to Quebec; use a checkout link.",
      });
    if (snapshot.stores.length === 0)
      throw new AppError("item_unavailable", {
        message: "None of the quote's items can be bought; create a new quote.",
      });
    if (!isAddressOnFile(quote.address, context.shippingAddress)) {
      throw new AppError("address_not_on_file", {
        message:
          "The quote's address is not the one saved in the person's account; quote for the saved address (address:read).",
      });
    }
    const settings = settingsAllowingPurchase(spendingSettingsOf(state));
    if (!state.card)
      throw new AppError("no_saved_card", { message: "The person has no saved card." });
    return settings;
  };

  /** The final answer from the purchase as the answer's transaction recorded it. */
  const made: Pick<RecordedAnswer, "checkout"> = { checkout: null };
  const answerOf = async (
    purchase: AnsweredRow,
    prisma: Tx | undefined,
  ): Promise<TPurchaseOutcome> => {
    if (purchase.status === "held" || purchase.status === "capturing")
      return { status: 201, body: toWirePurchase(purchase, null) };
    // The processor refused the create itself (our key or permissions, review M4): a refusal, nothing held.
    if (purchase.status === "refused" && purchase.reason === "processor_refused") {
      return refusalOutcome(
        new AppError("processor_refused", { message: purchaseErrorMessage("processor_refused") }),
      );
    }
    if (purchase.status !== "requires_person")
      return { status: 202, body: toWirePurchase(purchase, null) };
    // Nothing was charged: the move to requires_person gave the reservation back (movePurchase).
    if (purchase.reason === "payment_method_not_found") {
      return refusalOutcome(
        new AppError("card_not_on_this_account", {
          message: purchaseErrorMessage("card_not_on_this_account"),
        }),
      );
    }
    // requires_person: a real checkout of this quote for the person to pay themselves (a requires_person
    // answer is recorded in a Prisma transaction: recordAuthorizeAnswer).
    if (!prisma)
      throw new Error(
        `purchase ${purchase.id}: requires_person recorded outside a Prisma transaction`,
      );
    // The checkout may not be makeable any more (an item sold or removed, a price changed while the
    // bank was asked): its partial reservation is rolled back to the savepoint, the purchase still
    // closes requires_person (nothing charged), and the key's one answer is that refusal (review L3).
    // Only on this rare path: the hold's path has no savepoint.
    await prisma.$executeRaw`SAVEPOINT pay_yourself_checkout`;
    let inserted;
    try {
      inserted = await insertCheckout(prisma, {
        quoteId: quote.id,
        snapshot,
        owner: { clientId, personId },
        email,
        firstName: null,
        lastName: null,
        selections: {},
        now,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await prisma.$executeRaw`ROLLBACK TO SAVEPOINT pay_yourself_checkout`;
      return refusalOutcome(checkoutRefusal(error, purchase.reason));
    }
    made.checkout = inserted;
    return { status: 402, body: toWirePurchase(purchase, inserted) };
  };

  let outcome: TPurchaseOutcome | null = null;
  const lines = snapshot.stores.flatMap((store) => store.lines);
  let reserved = new Map<number, number>();
  let kept: unknown;
  try {
    await createPurchaseWithHold(db, paymentProvider(), {
      clientId,
      assistant,
      personId,
      email,
      quoteId: quote.id,
      grandTotalCents,
      now,
      // What reads no other purchase comes before the person's lock, which is held from there to the
      // commit (a refusal after it rolls everything back): the stock, reserved under row locks in id
      // order, the crash answer (the purchase processing: the reconciliation settles it), and the
      // purchase and its payment (createPurchaseWithHold writes them between the two hooks).
      claim: async (sql) => {
        if (!(await claimIdempotencyKey(sql, ref, hash, now))) throw new KeyTaken();
      },
      // A refusal keeps the claim and is stored in this transaction (one key, one answer: review L4).
      keepRefusal: async (sql, refusal) => {
        if (!isStoredRefusal(refusal)) return false;
        await finishIdempotent(sql, ref, now, storedAs(refusalOutcome(refusal)));
        kept = refusal;
        return true;
      },
      beforeInsert: async (sql, purchase) => {
        if (quote.expiresAt <= now)
          throw new AppError("quote_expired", {
            message: "The quote has expired; create a new quote.",
          });
        reserved = await reserve(sql, lines);
        await stageIdempotentOutcome(
          sql,
          ref,
          now,
          storedAs({ status: 202, body: toWirePurchase(purchase, null) }),
        );
      },
      afterInsert: async (sql, purchase) => {
        // One purchase of a person at a time from here to the commit: two cannot both fit the 30-day limit.
        const state = await readLockedState(sql, {
          personId,
          purchaseId: purchase.id,
          itemIds: lines.map((line) => line.itemId),
          now,
        });
        await underLock?.(sql);
        lockedChecks({
          state,
          snapshot,
          reserved,
          grandTotalCents,
          now,
          settings: checkQuote(state),
        });
        // The card as it is under the lock: one being removed now waits for this purchase, or was removed before it.
        const card = state.card!;
        return {
          method: {
            type: "saved",
            customerId: card.processorCustomerId,
            paymentMethodId: card.paymentMethodId,
          },
          cardLast4: card.last4,
        };
      },
      withAnswer: async (sql, purchase, prisma) => {
        outcome = await answerOf(purchase, prisma);
        await finishIdempotent(sql, ref, now, storedAs(outcome));
        await onAnswer?.(sql, { purchase, snapshot, checkout: made.checkout });
      },
      ...testHooks,
    });
  } catch (error) {
    if (error instanceof KeyTaken) return answerExisting<TPurchaseOutcome>(db, ref, hash, now);
    if (!isStoredRefusal(error)) throw error;
    const refused = refusalOutcome(error);
    // A refusal after the first transaction (none is expected) still goes under the key if it is free.
    if (error !== kept) await storeIdempotentRefusal(db, ref, hash, now, storedAs(refused));
    return { result: refused, replayed: false };
  }
  if (made.checkout) notifyCheckoutCreated(made.checkout.id);
  return { result: outcome!, replayed: false };
};

export const createPurchase = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZCreatePurchaseInput)
  .output(z.object({ outcome: z.custom<TPurchaseOutcome>(), replayed: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const { clientId, personId } = grantingPerson(ctx.actor);
    const { result, replayed } = await purchaseQuote(
      { db: ctx.db, now: ctx.clock.now(), clientId, personId },
      input,
    );
    return { outcome: result, replayed };
  });
