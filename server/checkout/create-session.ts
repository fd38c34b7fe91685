/**
 * POST /checkout/sessions: turns a quote into a checkout link valid 30 minutes, reserving its items.
 * Idempotent per client and Idempotency-Key (server/platform/idempotency.ts). Refusals (409,
 * stored and replayed): quote_expired (also when a price moved since the quote), item_unavailable
 * (some buyable item was taken since), nothing_to_buy (none of them is left). Past the caller's cap
 * of open checkouts, 429 too_many_open_checkouts (not stored: a retry after Retry-After runs).
 */
import { randomId } from "../core/ids";
import { AppError } from "../core/errors";
import { notifyCheckoutCreated } from "../platform/jobs/events";
import { procedure } from "../platform/trpc/procedures";
import type { Tx } from "../platform/db";
import {
  readKeptRequestHash,
  refuseReusedKey,
  requestHash,
  runIdempotent,
} from "../platform/idempotency";
import { toWireCheckout } from "./checkout-view";
import { checkOpenCheckoutCaps } from "./open-checkout-caps";
import { ownerOf } from "./ownership";
import {
  type QuoteSnapshot,
  resolveSelections,
  type Selections,
  snapshotTotals,
} from "./quote-snapshot";
import { reserve } from "./reservations";
import { ZCheckout, ZCreateCheckoutInput } from "./session.schema";
import { insertCheckoutRow } from "./store/checkouts";
import { findOwnedQuote } from "./store/quotes";
import { z } from "zod";

const checkoutLifetimeMs = 30 * 60_000;

/** Reserves every line of the snapshot, or refuses with what was taken. */
const reserveSnapshot = async (tx: Tx, snapshot: QuoteSnapshot) => {
  const lines = snapshot.stores.flatMap((store) => store.lines);
  const reserved = await reserve(tx, lines);
  const missing = lines.filter((line) => !reserved.has(line.variantId));
  const unavailable = missing.map((line) => ({ item_id: line.itemId, size: line.size }));
  if (missing.length === lines.length)
    throw new AppError("nothing_to_buy", {
      message: "None of the quote's items can be bought now; create a new quote.",
      details: { items: unavailable },
    });
  if (missing.length)
    throw new AppError("item_unavailable", {
      message: "Some items were bought or taken since the quote; create a new quote.",
      details: { items: unavailable },
    });
  const repriced = lines.filter((line) => reserved.get(line.variantId) !== line.unitPriceCents);
  if (repriced.length) {
    throw new AppError("quote_expired", {
      message: "A price changed since the quote; create a new quote.",
      details: { items: repriced.map((line) => ({ item_id: line.itemId, size: line.size })) },
    });
  }
  return lines;
};

/**
 * The checkout creation use case without its edge: reserves the quote's lines and writes the
 * checkout (awaiting_payment, 30 minutes). POST /purchases calls it for requires_person. The caller
 * sends `shopping/checkout.created` (notifyCheckoutCreated) after commit.
 */
export const insertCheckout = async (
  tx: Tx,
  input: {
    quoteId: string;
    snapshot: QuoteSnapshot;
    owner: { clientId: string; personId: string | null };
    email: string;
    firstName: string | null;
    lastName: string | null;
    selections: Selections;
    now: Date;
    createdFromAddress?: string | null;
  },
) => {
  const { snapshot, now } = input;
  const lines = await reserveSnapshot(tx, snapshot);
  const storeOf = new Map(
    snapshot.stores.flatMap((store) => store.lines.map((line) => [line.variantId, store.storeId])),
  );
  const totals = snapshotTotals(snapshot, input.selections);
  return insertCheckoutRow(tx, {
    id: randomId("chk_"),
    quoteId: input.quoteId,
    ...input.owner,
    email: input.email.toLowerCase(),
    firstName: input.firstName,
    lastName: input.lastName,
    selections: input.selections,
    ...totals,
    expiresAt: new Date(now.getTime() + checkoutLifetimeMs),
    createdAt: now,
    createdFromAddress: input.createdFromAddress ?? null,
    lines: lines.map((line) => ({
      storeId: storeOf.get(line.variantId)!,
      itemId: line.itemId,
      variantId: line.variantId,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
    })),
  });
};

export const createSession = procedure({ caller: "partner", scope: "checkout:write" })
  .input(ZCreateCheckoutInput)
  .output(z.object({ checkout: ZCheckout, replayed: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const owner = ownerOf(ctx.actor);
    const { idempotency_key: key, ...request } = input;
    const ref = {
      scope: owner.personId ? `${owner.clientId}:${owner.personId}` : owner.clientId,
      operation: "checkout.sessions.create",
      key,
    };
    // The key before the body: kept for another request, it is 422 whatever quote this one names.
    refuseReusedKey(await readKeptRequestHash(ctx.db, ref, now), requestHash(request));
    // Then validation: an unknown quote (or another owner's) or selection is a 404/422 and stores nothing under the key.
    const quote = await findOwnedQuote(ctx.db, input.quote_id, owner);
    if (!quote) throw new AppError("not_found", { message: `No quote ${input.quote_id}.` });
    const snapshot = quote.snapshot as unknown as QuoteSnapshot;
    const selections = resolveSelections(snapshot, input.shipping_selections);

    const outcome = await runIdempotent(ctx.db, { ref, request, now, status: 201 }, async (tx) => {
      if (quote.expiresAt <= now)
        throw new AppError("quote_expired", {
          message: "The quote has expired; create a new quote.",
        });
      const units = snapshot.stores.reduce(
        (sum, store) => sum + store.lines.reduce((lines, line) => lines + line.quantity, 0),
        0,
      );
      const createdFromAddress = await checkOpenCheckoutCaps(tx, { actor: ctx.actor, units, now });
      const checkout = await insertCheckout(tx, {
        quoteId: quote.id,
        snapshot,
        owner,
        email: request.email,
        firstName: request.first_name ?? null,
        lastName: request.last_name ?? null,
        selections,
        now,
        createdFromAddress,
      });
      return toWireCheckout(checkout);
    });
    if (!outcome.replayed) notifyCheckoutCreated(outcome.result.checkout_id);
    return { checkout: outcome.result, replayed: outcome.replayed };
  });
