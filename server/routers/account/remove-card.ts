/**
 * The shopper removes their saved card; assistants can then no longer buy (no_saved_card). The
 * method stays at the processor (the provider interface has no detach), unreferenced by us.
 * Removing when nothing is saved is not an error.
 */
import { shopperProcedure } from "../../trpc/procedures";
import { ZSavedCardResponse } from "./saved-card.schema";
import { toSavedCardResponse } from "./saved-card.queries";

export const removeCard = shopperProcedure
  .output(ZSavedCardResponse)
  .mutation(async ({ ctx }) => {
    await ctx.db.savedCard.deleteMany({ where: { personId: ctx.personId } });
    return toSavedCardResponse(null);
  });
