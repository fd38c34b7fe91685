/** POST /purchases (purchases.create): the assistant's purchase of a quote, the use case buy-quote.ts. */
import { z } from "zod";
import { procedure } from "../platform/trpc/procedures";
import { buyQuote } from "./buy-quote";
import { grantingPerson } from "./purchasing-agent";
import { type TPurchaseOutcome, ZCreatePurchaseInput } from "./purchase.schema";

export const createPurchase = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZCreatePurchaseInput)
  .output(z.object({ outcome: z.custom<TPurchaseOutcome>(), replayed: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const { clientId, personId } = grantingPerson(ctx.actor);
    const { result, replayed } = await buyQuote(
      { db: ctx.db, now: ctx.clock.now(), clientId, personId },
      input,
    );
    return { outcome: result, replayed };
  });
