/** `item:set-price ITEM_ID --price 12.34`: an operator's price change, through the one price-change path. */
import { z } from "zod";
import { db } from "../../platform/db";
import { formatCents, parseCents } from "../../core/money";
import { setItemPrice } from "../../catalogue";
import { ZAmountInput } from "../../core/money-input";
import { fail } from "./commands";

export const setItemPriceCommand = async (
  itemId: string | undefined,
  input: { price?: string },
) => {
  if (!itemId || !/^[1-9]\d{0,9}$/.test(itemId))
    fail("usage: item:set-price ITEM_ID --price 12.34");
  const parsed = z.object({ price: ZAmountInput }).safeParse({ price: input.price ?? "" });
  if (!parsed.success) fail(`--price ${parsed.error.issues[0].message}`);
  const change = await setItemPrice(
    db(),
    { itemId: Number(itemId), priceCents: parseCents(parsed.data!.price) },
    { now: new Date() },
  ).catch((error: Error) => fail(error.message));
  return {
    item_id: change.itemId,
    old_price: formatCents(change.oldPriceCents),
    price: formatCents(change.newPriceCents),
    price_change_id: change.eventId,
  };
};
