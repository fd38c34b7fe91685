/**
 * The signed-in person's assistant purchases (/account/purchases): the list, newest first, a page
 * at a time, and the cancel of a held one. The cancel is the one use case (cancelPurchase), the
 * same as the copy email's cancel page; only the person's own purchases are found (another
 * person's id is not_found, so ids leak nothing).
 */
import { publicPurchaseStatus } from "../purchases";
import { toMoney } from "../core/money";
import { AppError } from "../core/errors";
import { paymentProvider } from "../payments";
import { cancelPurchase } from "../purchases";
import { refundsOfPurchases, refundView } from "../refunds";
import { readReadingPreferences } from "../accounts";
import { shopperProcedure } from "../platform/trpc/procedures";
import type { QuoteSnapshot } from "../checkout";
import {
  myPurchasesPageSize,
  ZCancelMyPurchaseInput,
  ZListMyPurchasesInput,
  ZMyPurchasesResponse,
} from "./my-purchases.schema";
import { isPurchaseOfPerson, listPurchasesOfPerson } from "./store";

const snapshotOf = (row: { quote: { snapshot: unknown } }) => row.quote.snapshot as QuoteSnapshot;

/** Each line of the purchase's quote, with its store: what the list shows of what was bought. */
const itemsOf = (snapshot: QuoteSnapshot) =>
  snapshot.stores.flatMap((store) =>
    store.lines.map((line) => ({
      title: line.title,
      size: line.size,
      condition: line.condition ?? null,
      quantity: line.quantity,
      image_url: line.imageUrl,
      store: store.name,
    })),
  );

export const listMyPurchases = shopperProcedure
  .input(ZListMyPurchasesInput)
  .output(ZMyPurchasesResponse)
  .query(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const rows = await listPurchasesOfPerson(ctx.db, {
      personId: ctx.personId,
      page: input.page,
      pageSize: myPurchasesPageSize,
    });
    const shown = rows.slice(0, myPurchasesPageSize);
    const [refunds, reading] = await Promise.all([
      refundsOfPurchases(
        ctx.db,
        shown.map((row) => row.id),
      ),
      readReadingPreferences(ctx.db, ctx.personId),
    ]);
    return {
      purchases: shown.map((row) => ({
        purchase_id: row.id,
        status: publicPurchaseStatus(row.status),
        reason: row.reason,
        order_number: row.orderNumber,
        stores: snapshotOf(row).stores.map((store) => store.name),
        items: itemsOf(snapshotOf(row)),
        grand_total: toMoney(row.grandTotalCents),
        ...refundView(refunds.get(row.id)),
        assistant: row.client.name,
        created_at: row.createdAt.toISOString(),
        charges_at: row.chargesAt?.toISOString() ?? null,
        cancel_until: row.cancelUntil.toISOString(),
        can_cancel: row.status === "held" && row.cancelUntil > now,
      })),
      page: input.page,
      has_more: rows.length > myPurchasesPageSize,
      now: now.toISOString(),
      time_zone: reading.timeZone,
    };
  });

export const cancelMyPurchase = shopperProcedure
  .input(ZCancelMyPurchaseInput)
  .mutation(async ({ ctx, input }) => {
    if (!(await isPurchaseOfPerson(ctx.db, { personId: ctx.personId, id: input.purchase_id })))
      throw new AppError("not_found", { message: "No such purchase." });
    const result = await cancelPurchase(ctx.db, paymentProvider(), {
      id: input.purchase_id,
      now: ctx.clock.now(),
      by: "person",
    });
    return {
      purchase_id: result.id,
      status: result.status,
      already_cancelled: result.alreadyCancelled,
    };
  });
