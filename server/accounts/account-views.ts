/** Rows of accounts' store → the wire shapes of the account's answers. */
import type { Province } from "../core/provinces";
import { toMoney } from "../core/money";
import type { SpendingSettings } from "../core/spending-limits";
import { cardEntry } from "../payments";
import type { TSpendingSettingsResponse } from "./account.schema";
import type { TSavedCardResponse } from "./saved-card.schema";
import { type SpendingRow, spendingSettingsOf } from "./store/persons";
import type { SavedCardForPurchase } from "./store/saved-cards";
import type { AddressRow } from "./store/shipping-addresses";

/** Database row → the wire shape of a saved address. */
export const toShippingAddress = (row: AddressRow) => ({
  name: row.name,
  line1: row.line1,
  line2: row.line2,
  city: row.city,
  province: row.province as Province,
  postal_code: row.postalCode,
  country: "CA" as const,
  phone: row.phone,
});

/** A stored card → the wire shape: brand, last four and expiry only. */
export const toSavedCardResponse = (card: SavedCardForPurchase | null): TSavedCardResponse => ({
  card: card
    ? {
        brand: card.brand,
        last4: card.last4,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        created_at: card.createdAt.toISOString(),
      }
    : null,
  card_entry: cardEntry(),
});

/** Settings → the wire shape (Money strings, ISO instant). */
export const toSpendingSettingsResponse = (
  settings: SpendingSettings,
): TSpendingSettingsResponse => ({
  limit_per_order:
    settings.limitPerOrderCents === null ? null : toMoney(settings.limitPerOrderCents),
  limit_per_30_days:
    settings.limitPer30DaysCents === null ? null : toMoney(settings.limitPer30DaysCents),
  purchases_paused: settings.isPaused,
  paused_changed_at: settings.pausedChangedAt?.toISOString() ?? null,
});

/** The same from a row the caller already selected with `spendingSettingsSelect`. */
export const rowToSpendingSettingsResponse = (row: SpendingRow) =>
  toSpendingSettingsResponse(spendingSettingsOf(row));
