/**
 * The shopper removes their saved card; assistants can then no longer buy (no_saved_card). The
 * method stays at the processor (the provider interface has no detach), unreferenced by us.
 * Removing when nothing is saved is not an error.
 *
 * The removal takes the person's row lock (FOR NO KEY UPDATE), the lock a purchase (POST /purchases,
 * a watch's purchase) holds while it reads the saved card (review L14): a purchase whose transaction
 * is open when the card is removed finishes first and the removal waits for it; one that starts
 * after reads no card (no_saved_card). A purchase holds the card only if it read it before the
 * removal committed (in production the removal also detaches the card at Stripe, so a create that
 * comes later is refused: card_not_on_this_account).
 */
import { shopperProcedure } from "../../trpc/procedures";
import { ZSavedCardResponse } from "./saved-card.schema";
import { toSavedCardResponse } from "./saved-card.queries";

export const removeCard = shopperProcedure
  .output(ZSavedCardResponse)
  .mutation(async ({ ctx }) => {
    await ctx.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM persons WHERE id = ${ctx.personId} FOR NO KEY UPDATE`;
      await tx.savedCard.deleteMany({ where: { personId: ctx.personId } });
    });
    return toSavedCardResponse(null);
  });
