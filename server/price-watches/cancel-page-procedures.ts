/**
 * The cancel page of a price watch (app/price-watches/[id]/cancel), reached from the set email's
 * link. The token is signed for this watch and this purpose only (server/price-watches/watch-emails.ts).
 * `inspectCancel` only reads (the page's GET; mail scanners open links): the watch, its item as
 * the page shows it and the person's time zone; `cancel` is the page's POST and calls the one use
 * case, cancelWatch.
 */
import { z } from "zod";
import { AppError } from "../core/errors";
import { wholeNumber } from "../core/zod";
import { checkoutUrl } from "../checkout";
import { readReadingPreferences } from "../accounts";
import { cancelWatch } from "./cancel-watch";
import { watchOfCancelToken } from "./watch-emails";
import { router } from "../platform/trpc/init";
import { publicProcedure } from "../platform/trpc/procedures";
import { withItem } from "./price-watch-view";
import { findWatch, watchExists } from "./store/watches";

const ZCancelLink = z.object({
  id: wholeNumber(1, 2_147_483_647),
  token: z.string().min(1).max(1000),
});

const invalidLink = () =>
  new AppError("invalid_link", {
    message:
      "This cancel link is not valid. Use the link in the email we sent about this price watch.",
  });

const checkToken = (input: z.infer<typeof ZCancelLink>, now: Date) => {
  if (watchOfCancelToken(input.token, now) !== input.id) throw invalidLink();
};

const inspectCancel = publicProcedure.input(ZCancelLink).query(async ({ ctx, input }) => {
  checkToken(input, ctx.clock.now());
  const row = await findWatch(ctx.db, input.id);
  if (!row) throw invalidLink();
  const watch = await withItem(ctx.db, row);
  return {
    price_watch_id: input.id,
    item: watch.item,
    size: watch.size,
    status: watch.status,
    outcome: watch.outcome,
    order_number: watch.orderNumber,
    max_price_cents: watch.maxPriceCents,
    max_total_cents: watch.maxTotalCents,
    expires_at: watch.expiresAt.toISOString(),
    checkout_url:
      watch.status === "needs_you" && watch.checkoutId ? checkoutUrl(watch.checkoutId) : null,
    can_cancel: watch.status === "active",
    // The person's zone, for the page's times (their saved address's province).
    time_zone: (await readReadingPreferences(ctx.db, row.personId)).timeZone,
  };
});

const cancel = publicProcedure.input(ZCancelLink).mutation(async ({ ctx, input }) => {
  checkToken(input, ctx.clock.now());
  if (!(await watchExists(ctx.db, input.id))) throw invalidLink();
  const result = await cancelWatch(ctx.db, { id: input.id, now: ctx.clock.now() });
  return { price_watch_id: input.id, already_cancelled: result.alreadyCancelled };
});

export const priceWatchPageRouter = router({ inspectCancel, cancel });
