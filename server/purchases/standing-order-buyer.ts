/**
 * The person's side of POST /purchases' rules, checked when a standing order is set (a price watch,
 * an any-of group, a buying search watch), so that an order the person could never fill is refused
 * at once rather than failing when it buys: limits set and purchases not paused, a saved shipping
 * address in a market assistant purchases deliver to, a saved card. Each refusal a 409, nothing
 * set. The order is checked again, whole, by POST /purchases when it buys.
 */
import { findShippingAddress, readSavedCard } from "../accounts";
import { AppError } from "../core/errors";
import { assistantPurchasesDeliverTo } from "../core/provinces";
import type { Db } from "../platform/db";
import { spendingSettingsAllowingPurchase } from "./spending-room";

const refuse = (
  code: "address_not_on_file" | "not_available_in_market" | "no_saved_card",
  message: string,
) => new AppError(code, { message, status: 409 });

/** The person's spending settings and saved address, when a standing order may buy for them. */
export const standingOrderBuyer = async (db: Db, personId: string) => {
  const settings = await spendingSettingsAllowingPurchase(db, personId, { status: 409 });
  const address = await findShippingAddress(db, personId);
  if (!address)
    throw refuse("address_not_on_file", "The person has no saved shipping address to deliver to.");
  if (!assistantPurchasesDeliverTo(address.province))
    throw refuse("not_available_in_market", "Assistant purchases do not deliver to Quebec.");
  if (!(await readSavedCard(db, personId)))
    throw refuse("no_saved_card", "The person has no saved card.");
  return { settings, address };
};
