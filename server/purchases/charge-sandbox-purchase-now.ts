/**
 * Sandbox only (ops `sandbox:purchase-due`): a held purchase's charge time comes now and the charge
 * runs exactly as the sweep runs it (chargeDuePurchase): paid, or cancelled (item_sold when an item
 * sold elsewhere, notice_undelivered when its copy was not delivered). The browser tests and demos
 * reach the cancel page's later states with it; the caller checks SERVICE_ENV.
 */
import type { Db } from "../platform/db";
import type { PaymentProvider } from "../payments";
import { chargeDuePurchase } from "./charge-purchase";
import { makeHeldPurchaseDueNow } from "./store/purchases";

export const chargeSandboxPurchaseNow = async (
  db: Db,
  provider: PaymentProvider,
  options: { id: string; now: Date },
) => {
  await makeHeldPurchaseDueNow(db, options);
  return chargeDuePurchase(db, options.id, { now: options.now, provider });
};
