/**
 * The refunds of the purchase a cancel link names (app/purchases/[id]/cancel): the page tells a
 * person whose refund the bank sent back that it did not reach them, instead of "refunded". The
 * link's token is checked as the page's own view checks it (purchases' checkCancelLink).
 */
import { checkCancelLink, ZCancelLink } from "../purchases";
import { router } from "../platform/trpc/init";
import { publicProcedure } from "../platform/trpc/procedures";
import { refundView } from "./refund-view";
import { refundsOfPurchases } from "./store";

const ofCancelLink = publicProcedure.input(ZCancelLink).query(async ({ ctx, input }) => {
  checkCancelLink(input, ctx.clock.now());
  return refundView((await refundsOfPurchases(ctx.db, [input.id])).get(input.id));
});

export const purchaseRefundsRouter = router({ ofCancelLink });
