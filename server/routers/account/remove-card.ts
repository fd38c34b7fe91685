/**
 * The shopper removes their saved card; assistants can then no longer buy (no_saved_card). The
 * method is detached at the processor once nothing of ours references it (the Stripe Customer
 * stays, for the next card). Removing when nothing is saved is not an error.
 */
import { paymentProvider } from "../../payments";
import { shopperProcedure } from "../../trpc/procedures";
import { detachQuietly } from "./complete-card-setup";
import { ZSavedCardResponse } from "./saved-card.schema";
import { toSavedCardResponse } from "./saved-card.queries";

export const removeCard = shopperProcedure
  .output(ZSavedCardResponse)
  .mutation(async ({ ctx }) => {
    const removed = await ctx.db.$transaction(async (tx) => {
      // Under the person's lock, as purchases read the saved card.
      await tx.$queryRaw`SELECT id FROM persons WHERE id = ${ctx.personId} FOR NO KEY UPDATE`;
      const card = await tx.savedCard.findUnique({ where: { personId: ctx.personId }, select: { paymentMethodId: true } });
      await tx.savedCard.deleteMany({ where: { personId: ctx.personId } });
      return card;
    });
    if (removed) await detachQuietly(paymentProvider(), removed.paymentMethodId);
    return toSavedCardResponse(null);
  });
