/** The signed-in shopper's saved card: brand, last four and expiry only (session only). */
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSavedCardResponse } from "./saved-card.schema";
import { toSavedCardResponse } from "./account-views";
import { readSavedCard } from "./store/saved-cards";

export const getSavedCard = shopperProcedure
  .output(ZSavedCardResponse)
  .query(async ({ ctx }) => toSavedCardResponse(await readSavedCard(ctx.db, ctx.personId)));
