/** The shopper saves their sizes (as they type them; searches map them with the size normaliser). */
import { z } from "zod";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSizes } from "./account.schema";
import { updateSizes as saveSizes } from "./store/persons";

export const updateSizes = shopperProcedure
  .input(z.object({ sizes: ZSizes }).strict())
  .mutation(async ({ ctx, input }) => {
    return { sizes: await saveSizes(ctx.db, ctx.personId, input.sizes) };
  });
