/**
 * Records a card the person saved in the browser with Stripe's Payment Element (a SetupIntent),
 * whichever arrives first: the page on its return, or Stripe's webhook (setup_intent.succeeded).
 * Neither is trusted: the SetupIntent is retrieved from Stripe, and it counts only if it succeeded
 * for the Customer we remember for the person named in its metadata. Under the person's row lock
 * (the lock purchases read the saved card under) the card replaces the saved one; the replaced
 * PaymentMethod is then detached at Stripe. A second arrival finds the card saved and changes
 * nothing.
 */
import { type Db, inTransaction } from "../platform/db";
import type { PaymentProvider } from "../payments";
import { findProcessorCustomerId, lockPerson } from "./store/persons";
import { readSavedCard, type SavedCardForPurchase, upsertSavedCard } from "./store/saved-cards";
import { logger } from "../platform/observability/log";

export type CardSetupOutcome =
  { personId: string; card: SavedCardForPurchase } | { personId: string; failed: true };

export const completeCardSetup = async (
  db: Db,
  provider: PaymentProvider,
  options: { setupIntentId: string; now: Date },
): Promise<CardSetupOutcome | null> => {
  const setup = await provider.retrieveCardSetup({ setupId: options.setupIntentId });
  const personId = setup?.metadata.person_id;
  if (!setup || !personId || !setup.customerId) return null;
  // A SetupIntent for another Customer than the one we remember for this person is not theirs.
  if ((await findProcessorCustomerId(db, personId)) !== setup.customerId) return null;
  if (setup.status === "failed") return { personId, failed: true };
  if (setup.status !== "succeeded" || !setup.card) return null;
  const card = setup.card;
  const { saved, replaced } = await inTransaction(db, async (tx) => {
    await lockPerson(tx, personId);
    const current = await readSavedCard(tx, personId);
    if (current?.paymentMethodId === card.paymentMethodId)
      return { saved: current, replaced: null };
    const saved = await upsertSavedCard(tx, personId, {
      processorCustomerId: setup.customerId!,
      paymentMethodId: card.paymentMethodId,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      createdAt: options.now,
    });
    return { saved, replaced: current?.paymentMethodId ?? null };
  });
  if (replaced) await detachQuietly(provider, replaced);
  return { personId, card: saved };
};

/** Detaches a PaymentMethod nothing of ours references any more; a failure only leaves it attached at Stripe, never charged by us. */
export const detachQuietly = (provider: PaymentProvider, paymentMethodId: string) =>
  provider
    .detachMethod({ paymentMethodId })
    .catch((error: unknown) =>
      logger.warn(
        { payment_method_id: paymentMethodId, error: (error as Error).message },
        "payments: could not detach the card now",
      ),
    );
