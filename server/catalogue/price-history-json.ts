/** A PriceHistory to its wire shape (Money strings, snake_case, ISO times). */
import { formatCents, toMoney } from "../core/money";
import type { PriceHistory } from "./store/price-history";

/**
 * `change` as a signed percentage of `base` with one decimal, rounded half away from zero, in
 * integers only: -2000 of 14500 is -13.793...% -> "-13.8". A change that rounds to zero is "0.0".
 */
const percentChange = (change: number, base: number) => {
  const tenths = Math.floor((2 * Math.abs(change) * 1000 + base) / (2 * base));
  const sign = change < 0 && tenths > 0 ? "-" : "";
  return `${sign}${Math.floor(tenths / 10)}.${tenths % 10}`;
};

export const toPriceHistory = (history: PriceHistory) => {
  const priceNow = history.points.at(-1)!.priceCents;
  const previous = history.previousPriceCents;
  return {
    catalog_item_id: String(history.itemId),
    currency: "CAD" as const,
    points: history.points.map((point) => ({
      price: toMoney(point.priceCents),
      from: point.from.toISOString(),
      to: point.to?.toISOString() ?? null,
    })),
    truncated: history.truncated,
    lowest_30_days: toMoney(history.lowest30Cents),
    lowest_90_days: toMoney(history.lowest90Cents),
    lowest_since_listed: toMoney(history.lowestSinceListedCents),
    previous_price: previous === null ? null : toMoney(previous),
    change_from_previous:
      previous === null
        ? null
        : {
            amount: formatCents(priceNow - previous),
            percent: percentChange(priceNow - previous, previous),
          },
  };
};
