/** A group row with its alternatives → the PriceWatchGroup of the API (each alternative a PriceWatch). */
import { toMoney } from "../../core/money";
import type { Db } from "../../platform/db";
import { toWirePriceWatch, type WatchedItem, withItems } from "../price-watch-view";
import type { WatchRow } from "../store/watches";
import type { TPriceWatchGroup } from "./price-watch-group.schema";
import type { GroupWithAlternatives } from "./store";

/** A group whose alternatives carry their items as the shopper's pages show them (watchedItemOf). */
export type GroupWithItems = Omit<GroupWithAlternatives, "alternatives"> & {
  alternatives: (WatchRow & { item: WatchedItem })[];
};

/** The groups with their alternatives' items: one read of the catalogue for them all. */
export const withAlternativeItems = async (
  db: Db,
  groups: readonly GroupWithAlternatives[],
): Promise<GroupWithItems[]> => {
  const alternatives = await withItems(
    db,
    groups.flatMap((group) => group.alternatives),
  );
  const byId = new Map(alternatives.map((alternative) => [alternative.id, alternative]));
  return groups.map((group) => ({
    ...group,
    alternatives: group.alternatives.map(({ id }) => byId.get(id)!),
  }));
};

/** One group with its alternatives' items, as the wire shows it. */
export const toWirePriceWatchGroup = (group: GroupWithItems): TPriceWatchGroup => {
  const claimed = group.alternatives.find(({ id }) => id === group.claimedWatchId);
  return {
    price_watch_group_id: group.id,
    status: group.status,
    outcome: group.outcome,
    max_total: toMoney(group.maxTotalCents),
    claimed_price_watch_id: group.claimedWatchId,
    purchase_id: group.purchaseId,
    order_number: group.status === "fulfilled" ? (claimed?.orderNumber ?? null) : null,
    expires_at: group.expiresAt.toISOString(),
    created_at: group.createdAt.toISOString(),
    alternatives: group.alternatives.map(toWirePriceWatch),
  };
};

/** The groups as the wire shows them (their alternatives' items read in one go). */
export const toWireGroups = async (db: Db, groups: readonly GroupWithAlternatives[]) =>
  (await withAlternativeItems(db, groups)).map(toWirePriceWatchGroup);

export const toWireGroup = async (db: Db, group: GroupWithAlternatives) =>
  (await toWireGroups(db, [group]))[0];
