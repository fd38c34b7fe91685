/**
 * A new listing: items written with their variants (one a size), and one `listed` catalogue event per
 * item (price_change_events, kind listed, old = new price), in one transaction, so the listing and
 * what reacts to it (search watches) are never apart. Used by the sandbox's POST /sandbox/items and
 * the watches bench; a store's feed would call it too. The search index sees the items through
 * their updated_at, as any change.
 */
import { notifyPriceChanged } from "../platform/jobs/events";
import { sqlTransaction } from "../platform/sql";
import { type NewListing, writeListings } from "./store/listings";

export type { NewListing };

/**
 * Lists `items` in the store `storeSlug` now; returns their ids and the listed events' ids.
 * not_found for an unknown store; invalid_request for an unknown category.
 */
export const listItems = async (
  storeSlug: string,
  items: readonly NewListing[],
  options: { now: Date },
) => {
  const { now } = options;
  const written = await sqlTransaction((sql) => writeListings(sql, storeSlug, items, now));
  notifyPriceChanged(written.eventIds);
  return written;
};
