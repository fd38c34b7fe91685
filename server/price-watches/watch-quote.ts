/**
 * The quote step of a watch's evaluation: a fresh quote for the watch's item and size at the saved
 * address, made as the watch's assistant (POST /checkout/quotes' own use case, `quoteItems`), and
 * which of an item's other watches a quote could no longer buy (the quote's own rule).
 */
import { toAppError } from "../platform/http/respond";
import { buildQuoteLines, loadQuotableItems, quoteItems, snapshotTotals } from "../checkout";
import { ZCreateQuoteRequest } from "../checkout";
import { poolSql } from "../platform/sql";
import type { FreshQuote } from "./policy";
import type { EvaluatedWatch } from "./store/evaluation";

/** A quote's refusal that means the watch's item is sold: nothing left to buy (sold, reserved, its store stopped selling), or its size is gone. */
const isSoldRefusal = (error: unknown) =>
  ["nothing_to_buy", "invalid_request"].includes(toAppError(error).code);

/** A fresh quote for the watch's item and size at the saved address, made as the watch's assistant: its id, unit price and total. */
export const freshQuote = async (watch: EvaluatedWatch, now: Date): Promise<FreshQuote> => {
  if (!watch.address) return { ended: "address_not_on_file" };
  try {
    // Parsed as POST /checkout/quotes parses it (the address normalised as the saved one is compared).
    const input = ZCreateQuoteRequest.parse({
      items: [{ item_id: watch.itemId, size: watch.size ?? undefined, quantity: 1 }],
      shipping_address: watch.address,
    });
    const quote = await quoteItems(
      { clientId: watch.clientId, personId: watch.personId },
      input,
      now,
    );
    const line = quote.snapshot.stores
      .flatMap((store) => store.lines)
      .find((candidate) => candidate.itemId === watch.itemId);
    if (!line) return { ended: "item_sold" };
    return {
      quoteId: quote.id,
      unitPriceCents: line.unitPriceCents,
      grandTotalCents: snapshotTotals(quote.snapshot, {}).grandTotalCents,
    };
  } catch (error) {
    if (isSoldRefusal(error)) return { ended: "item_sold" };
    throw error;
  }
};

/** The watches of `itemId` whose size a quote could not buy now (the quote's own rule, buildQuoteLines; a size gone from the item too). */
export const withNothingToBuy = async <T extends { size: string | null }>(
  itemId: number,
  watches: T[],
) => {
  const items = await loadQuotableItems(poolSql, [itemId]);
  return watches.filter((watch) => {
    try {
      return (
        buildQuoteLines([{ item_id: itemId, size: watch.size ?? undefined, quantity: 1 }], items)
          .groups.length === 0
      );
    } catch (error) {
      if (isSoldRefusal(error)) return true;
      throw error;
    }
  });
};
