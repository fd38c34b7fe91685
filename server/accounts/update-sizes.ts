/** The shopper saves their sizes (as they type them; searches map them with the size normaliser). */
import { z } from "zod";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSizes } from "./account.schema";

export const updateSizes = shopperProcedure
  .input(z.object({ sizes: ZSizes }).strict())
  .mutation(async ({ ctx, input }) => {
    const person = await ctx.db.person.update({
      where: { id: ctx.personId },
      data: { sizes: input.sizes },
      select: { sizes: true },
    });
    return { sizes: person.sizes };
  });
