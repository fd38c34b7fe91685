/**
 * Saves a person's card at the processor and keeps only its references (one card per person: a
 * new one replaces the old). Shared by the dashboard's `saveCard` and `ops person:create --card`.
 * The steps: refuse in production (card numbers must not reach us there), check the expiry and
 * the sandbox test card, save at the processor (`saveMethod`, our key), store the references.
 */
import { randomId } from "../core/ids";
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import { paymentProvider } from "../payments";
import { isUnknownOutcome } from "../payments";
import {
  isTestCard,
  refuseAuthenticationWithStripe,
  refuseCardNumberInProduction,
  testCards,
} from "../payments";
import { cardBrand, type ZSaveCardInput } from "./saved-card.schema";
import { readCardOwner } from "./store/saved-cards";
import { type SavedCardForPurchase, upsertSavedCard } from "./store/saved-cards";
import type { z } from "zod";

/** A card as the save schema outputs it (digits only, four-digit year). */
export type Card = z.output<typeof ZSaveCardInput>;

const invalid = (fields: Record<string, string>) => new AppError("invalid_request", { fields });

/** Production takes cards only through the processor's own form (Stripe.js). */
const refuseRawNumbersInProduction = () =>
  refuseCardNumberInProduction("Cards are saved through the payment processor's own form.");

/** A card is good through the last day of its expiry month (UTC). */
const refuseExpired = (card: Card, now: Date) => {
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (card.exp_year * 12 + (card.exp_month - 1) >= thisMonth) return;
  throw invalid(
    card.exp_year < now.getUTCFullYear()
      ? { exp_year: "is in the past: the card has expired" }
      : { exp_month: "is in the past: the card has expired" },
  );
};

/**
 * Only the sandbox test numbers are saved (a real number must never sit in the sandbox ledger).
 * The declined test card is refused here, as Stripe's SetupIntent refuses it (card_declined);
 * the others are saved and show their behaviour at authorize.
 */
const refuseUnsavableTestCard = (number: string) => {
  if (number === testCards.declined)
    throw invalid({
      number:
        "was declined by the bank: try another card (sandbox test card 4000 0000 0000 0002 always declines)",
    });
  if (!isTestCard(number))
    throw invalid({ number: "is not a sandbox test card: use 4242 4242 4242 4242" });
  refuseAuthenticationWithStripe(number, "number");
};

/** Throws what saving `card` would be refused with, before anything is written (403 in production, 422 with fields). */
export const checkCardToSave = (card: Card, now: Date) => {
  refuseRawNumbersInProduction();
  refuseExpired(card, now);
  refuseUnsavableTestCard(card.number);
};

/** Saves `card` for the person, replacing any saved card (the same processor customer is reused). */
export const saveCardForPerson = async ({
  db,
  personId,
  card,
  now,
}: {
  db: Db;
  personId: string;
  card: Card;
  now: Date;
}): Promise<SavedCardForPurchase> => {
  checkCardToSave(card, now);
  const person = await readCardOwner(db, personId);
  const saved = await paymentProvider()
    .saveMethod({
      idempotencyKey: `${personId}:save-card:${randomId("att_")}`,
      card: {
        type: "card",
        number: card.number,
        expMonth: card.exp_month,
        expYear: card.exp_year,
        cvc: card.cvc,
      },
      customerId: person.processorCustomerId,
      email: person.email,
    })
    .catch((error: unknown) => {
      if (isUnknownOutcome(error))
        throw new AppError("unavailable", {
          message: "The card processor did not answer. Your card was not saved; try again.",
          retryAfter: 5,
        });
      throw error;
    });
  return upsertSavedCard(db, personId, {
    processorCustomerId: saved.customerId,
    paymentMethodId: saved.paymentMethodId,
    brand: cardBrand(card.number),
    last4: saved.cardLast4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
    createdAt: now,
  });
};
