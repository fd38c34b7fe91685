/**
 * A recorded price change (price_change_events, written with the change by set-item-price.ts) and
 * the shape of what reacts to one: price watches and price alerts each export a handler, and
 * server/price-changes/ runs them in order for every event.
 */
import type { Db } from "../platform/db";
import type { PriceChangeRecord } from "./store/prices";

export type { PriceChangeRecord };

export type PriceChangeHandler = {
  name: string;
  handle: (db: Db, event: PriceChangeRecord, options: { now: Date }) => Promise<void>;
};
