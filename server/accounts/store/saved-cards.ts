/**
 * The queries of `saved_cards`: the processor's references to a person's one saved card, never
 * the number. Prisma (`readSavedCard` also runs in a purchase's Prisma transaction; the purchase's
 * raw-SQL path reads the card in its own locked statement, docs/adr/0062-purchase-transactions.md).
 */
import type { Db, Tx } from "../../platform/db";

type Client = Db | Tx;

const savedCardSelect = {
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

/** Saves the card's references for the person, replacing any saved card. */
export const upsertSavedCard = (
  db: Client,
  personId: string,
  card: Omit<SavedCardForPurchase, "createdAt"> & { createdAt: Date },
): Promise<SavedCardForPurchase> =>
  db.savedCard.upsert({
    where: { personId },
    create: { personId, ...card },
    update: card,
    select: savedCardSelect,
  });

/** Removes the person's saved card (nothing when none is saved). */
export const deleteSavedCard = (db: Client, personId: string) =>
  db.savedCard.deleteMany({ where: { personId } });

/** The processor customer of the person's saved card, if any; the person's email; throws when no such person. */
export const readCardOwner = async (db: Client, personId: string) => {
  const person = await db.person.findUniqueOrThrow({
    where: { id: personId },
    select: { email: true, savedCard: { select: { processorCustomerId: true } } },
  });
  return { email: person.email, processorCustomerId: person.savedCard?.processorCustomerId };
};
