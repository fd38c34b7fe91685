/**
 * POST /purchases (purchases.create): an assistant buys a quote with the person's saved card,
 * within the person's limits. Checks in the order of the reference's rules; what depends on other
 * purchases (prices and stock, the per-order and 30-day limits, the hourly count) runs in the
 * transaction that writes the purchase, under a lock on the person's row, before the processor is
 * asked (server/purchases/create-purchase.ts), so two purchases of one person cannot both fit.
 * Then the hold: 201 held, 202 processing, 402 requires_person with a checkout link.
 * Idempotent per (client, person) and key: every outcome but too_many_purchases and the checks
 * before the key (token, switch, unknown quote) is stored and replayed byte for byte.
 */
import { toMoney } from "../../domain/money";
import { purchaseRefusal } from "../../domain/spending-limits";
import { AppError, errorBody } from "../../errors";
import { notifyCheckoutCreated } from "../../jobs/events";
import { paymentProvider } from "../../payments";
import type { Tx } from "../../payments/payment-steps";
import { isAddressOnFile } from "../../purchases/address-on-file";
import { createPurchaseWithHold } from "../../purchases/create-purchase";
import { purchasingAgent } from "../../purchases/purchasing-agent";
import { overSpendingLimit, spendingRoom } from "../../purchases/spending-room";
import { scopedProcedure } from "../../trpc/procedures";
import { readSavedCard } from "../account/saved-card.queries";
import { readSpendingSettings } from "../account/spending.queries";
import { insertCheckout } from "../checkout/create-session";
import { reserve } from "../checkout/reservations";
import type { QuoteSnapshot } from "../checkout/quote-snapshot";
import { snapshotTotals } from "../checkout/quote-snapshot";
import { runIdempotent } from "../shared/idempotency";
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

/** The person's spending settings when they allow a purchase; purchases_paused or spending_limit_not_set otherwise. */
const spendingSettingsAllowingPurchase = async (db: Pick<Tx, "person">, personId: string) => {
  const settings = await readSpendingSettings(db, personId);
  const refusal = settings ? purchaseRefusal(settings) : "spending_limit_not_set";
  if (refusal) throw new AppError(refusal, { message: refusal === "purchases_paused" ? "The person paused assistant purchases." : "The person has not set spending limits." });
  return settings!;
};

/** Rules that read other purchases, prices and stock: run under the person's row lock in the insert transaction. */
const lockedChecks = async (tx: Tx, options: { personId: string; quoteId: string; snapshot: QuoteSnapshot; grandTotalCents: number; now: Date }) => {
  const { personId, snapshot, grandTotalCents, now } = options;
  await tx.$queryRaw`SELECT id FROM persons WHERE id = ${personId} FOR UPDATE`;
  // A concurrent purchase of the same quote committed while we waited for the lock (the unique index is the backstop).
  await assertQuoteNotBought(tx, options.quoteId);
  const settings = await spendingSettingsAllowingPurchase(tx, personId);
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

export const createPurchase = scopedProcedure("purchase:write")
  .input(ZCreatePurchaseInput)
  .output(z.object({ outcome: z.custom<TPurchaseOutcome>(), replayed: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const actor = ctx.actor;
    const { personId, clientId, assistant } = await purchasingAgent(ctx.db, actor);
    const quote = await ctx.db.quote.findFirst({ where: { id: input.quote_id, clientId, personId }, select: { id: true, expiresAt: true, snapshot: true, address: true } });
    if (!quote) throw new AppError("not_found", { message: `No quote ${input.quote_id}.` });
    const snapshot = quote.snapshot as unknown as QuoteSnapshot;
    const { idempotency_key: key, ...request } = input;
    const ref = { scope: `${clientId}:${personId}`, operation: "purchases.create", key };

    const outcome = await runIdempotent<TPurchaseOutcome>(ctx.db, { ref, request, now, status: 200 }, async () => {
      try {
        return await buy();
      } catch (error) {
        if (isStoredRefusal(error)) return { status: error.status, body: errorBody(error) as TPurchaseOutcome["body"] };
        throw error;
      }
    });
    return { outcome: outcome.result, replayed: outcome.replayed };

    async function buy(): Promise<TPurchaseOutcome> {
      if (quote!.expiresAt <= now) throw new AppError("quote_expired", { message: "The quote has expired; create a new quote." });
      await assertQuoteNotBought(ctx.db, quote!.id);
      const linkStores = snapshot.stores.filter((store) => store.agentCheckout !== "direct");
      if (linkStores.length) {
        throw new AppError("store_requires_checkout_link", { message: "A store of this quote sells only through a checkout link; use POST /checkout/sessions.", details: { stores: linkStores.map((store) => store.slug) } });
      }
      if (snapshot.destination === "QC") throw new AppError("not_available_in_market", { message: "Assistant purchases do not deliver to Quebec; use a checkout link." });
      if (snapshot.stores.length === 0) throw new AppError("item_unavailable", { message: "None of the quote's items can be bought; create a new quote." });
      const person = await ctx.db.person.findUniqueOrThrow({ where: { id: personId }, select: { email: true, shippingAddress: true } });
      if (!isAddressOnFile(quote!.address, person.shippingAddress)) {
        throw new AppError("address_not_on_file", { message: "The quote's address is not the one saved in the person's account; quote for the saved address (address:read)." });
      }
      await spendingSettingsAllowingPurchase(ctx.db, personId);
      const card = await readSavedCard(ctx.db, personId);
      if (!card) throw new AppError("no_saved_card", { message: "The person has no saved card." });
      const grandTotalCents = snapshotTotals(snapshot, {}).grandTotalCents;
      const provider = paymentProvider(ctx.db);
      const purchase = await createPurchaseWithHold(ctx.db, provider, {
        clientId, assistant, personId, email: person.email, quoteId: quote!.id, grandTotalCents,
        method: { type: "saved", customerId: card.processorCustomerId, paymentMethodId: card.paymentMethodId }, cardLast4: card.last4, now,
        beforeInsert: (tx) => lockedChecks(tx, { personId, quoteId: quote!.id, snapshot, grandTotalCents, now }),
      });
      if (purchase.status === "held" || purchase.status === "capturing") return { status: 201, body: toWirePurchase(purchase, null) };
      if (purchase.status === "processing") return { status: 202, body: toWirePurchase(purchase, null) };
      // Nothing was charged: the move to requires_person gave the reservation back (movePurchase).
      if (purchase.reason === "payment_method_not_found") {
        throw new AppError("card_not_on_this_account", { message: purchaseErrorMessage("card_not_on_this_account") });
      }
      // requires_person: a real checkout of this quote for the person to pay themselves.
      const checkout = await ctx.db.$transaction((tx) =>
        insertCheckout(tx, { quoteId: quote!.id, snapshot, owner: { clientId, personId }, email: person.email, firstName: null, lastName: null, selections: {}, now }),
      );
      notifyCheckoutCreated(checkout.id);
      return { status: 402, body: toWirePurchase(purchase, checkout) };
    }
  });
