/**
 * The person's saved card as stored (processor references, brand, last four, expiry), for the
 * dashboard procedures and for assistant purchases, which hold this card off-session.
 */
import type { Db } from "../platform/db";
import { env } from "../platform/env";
import type { TSavedCardResponse } from "./saved-card.schema";

export const savedCardSelect = {
  processorCustomerId: true,
  paymentMethodId: true,
  brand: true,
  last4: true,
  expMonth: true,
  expYear: true,
  createdAt: true,
} as const;

/** The saved card of a person: what POST /purchases passes to the processor as a `saved` method. */
export type SavedCardForPurchase = {
  processorCustomerId: string;
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: Date;
};

/**
 * The person's saved card, or null when none is saved (purchases refuse with `no_saved_card`).
 * Authorize off-session with `{ type: "saved", customerId: processorCustomerId, paymentMethodId }`.
 * Pass a transaction to read under its locks.
 */
export const readSavedCard = async (
  db: Pick<Db, "savedCard">,
  personId: string,
): Promise<SavedCardForPurchase | null> =>
  db.savedCard.findUnique({ where: { personId }, select: savedCardSelect });

/** How a card is entered here: the sandbox form takes test numbers; with Stripe (always in production) only Stripe's own form (the Payment Element). */
const cardEntry = (): TSavedCardResponse["card_entry"] =>
  env().SERVICE_ENV === "production" || env().PAYMENT_PROCESSOR === "stripe"
    ? "processor_form"
    : "sandbox_test_cards";

/** A stored card → the wire shape: brand, last four and expiry only. */
export const toSavedCardResponse = (card: SavedCardForPurchase | null): TSavedCardResponse => ({
  card: card
    ? {
        brand: card.brand,
        last4: card.last4,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        created_at: card.createdAt.toISOString(),
      }
    : null,
  card_entry: cardEntry(),
});
