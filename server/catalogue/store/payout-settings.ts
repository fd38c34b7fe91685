/**
 * A store's payout settings (docs/adr/0106): its connected account at the processor and the
 * platform's fee on its items. Set by the operator (`ops store:connect`, `store:fee`); the stores
 * row's change reaches the search index through its NOTIFY trigger, as any store change.
 */
import type { Db } from "../../platform/db";

const payoutSelect = {
  id: true,
  slug: true,
  name: true,
  payoutAccount: true,
  platformFeeBps: true,
} as const;

export const findStorePayoutSettings = (db: Db, slug: string) =>
  db.store.findUnique({ where: { slug }, select: payoutSelect });

/** Sets (or, with null, removes) the store's connected account; null when there is no such store. */
export const setStorePayoutAccount = async (db: Db, slug: string, account: string | null) =>
  (await db.store.updateMany({ where: { slug }, data: { payoutAccount: account } })).count
    ? findStorePayoutSettings(db, slug)
    : null;

export const setStorePlatformFee = async (db: Db, slug: string, bps: number) =>
  (await db.store.updateMany({ where: { slug }, data: { platformFeeBps: bps } })).count
    ? findStorePayoutSettings(db, slug)
    : null;
