/**
 * The shopper removes their saved card; assistants can then no longer buy (no_saved_card). The
 * method is detached at the processor once nothing of ours references it (the Stripe Customer
 * stays, for the next card). Removing when nothing is saved is not an error.
 *
 * The removal takes the person's row lock (FOR NO KEY UPDATE), the lock a purchase (POST /purchases,
 * a watch's purchase) holds while it reads the saved card (review L14): a purchase whose transaction
 * is open when the card is removed finishes first and the removal waits for it; one that starts
 * after reads no card (no_saved_card). A purchase holds the card only if it read it before the
 * removal committed (the card is detached at Stripe then, so a create that comes later is refused:
 * card_not_on_this_account).
 */
import { paymentProvider } from "../payments";
import { shopperProcedure } from "../platform/trpc/procedures";
import { detachQuietly } from "./complete-card-setup";
import { ZSavedCardResponse } from "./saved-card.schema";
import { toSavedCardResponse } from "./account-views";
import { inTransaction } from "../platform/db";
import { lockPerson } from "./store/persons";
import { deleteSavedCard, readSavedCard } from "./store/saved-cards";

export const removeCard = shopperProcedure.output(ZSavedCardResponse).mutation(async ({ ctx }) => {
  const removed = await inTransaction(ctx.db, async (tx) => {
    // Under the person's lock, as purchases read the saved card.
    await lockPerson(tx, ctx.personId);
    const card = await readSavedCard(tx, ctx.personId);
    await deleteSavedCard(tx, ctx.personId);
    return card;
  });
  if (removed) await detachQuietly(paymentProvider(), removed.paymentMethodId);
  return toSavedCardResponse(null);
});
