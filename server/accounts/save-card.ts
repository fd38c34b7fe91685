/**
 * The shopper saves a card for assistant purchases (sandbox: a test card number), replacing any
 * saved one. Session only, POST only (the number never travels in a URL); refused in production.
 */
import { shopperProcedure } from "../platform/trpc/procedures";
import { saveCardForPerson } from "./save-card-for-person";
import { ZSaveCardInput, ZSavedCardResponse } from "./saved-card.schema";
import { toSavedCardResponse } from "./account-views";

export const saveCard = shopperProcedure
  .input(ZSaveCardInput)
  .output(ZSavedCardResponse)
  .mutation(async ({ ctx, input }) =>
    toSavedCardResponse(
      await saveCardForPerson({
        db: ctx.db,
        personId: ctx.personId,
        card: input,
        now: ctx.clock.now(),
      }),
    ),
  );
