/**
 * What "a store can sell now" means, in one place. A store sells when it is open, able to take
 * payment, connected to the processor (a payout account to receive its share of each sale:
 * docs/adr/0106) and able to ship, and able to ship includes having at least one shipping rate:
 * without a rate no delivery can be priced, so its items could be found but never quoted. Only the items of
 * such stores are listed (search, categories, product and store pages), quoted, reserved and paid for.
 *
 * The rule is written here three ways, for the three places it is evaluated, and
 * store-can-sell.integration.test.ts holds them to the same answer for every combination:
 * - `storeCanSell`: in memory, on a loaded store;
 * - `storeCanSellSql`: in SQL, on a `stores` row (search, categories, reservations, payment);
 * - `storeCanSellWhere`: as a Prisma `where` on stores (product pages).
 */

/** The facts about a store the rule reads. */
export type StoreSellingFacts = {
  isOpen: boolean;
  canTakePayment: boolean;
  /** The store's connected account at the processor; null until `ops store:connect`. */
  payoutAccount: string | null;
  canShip: boolean;
  shippingRates: ArrayLike<unknown>;
};

/** True when the store can sell now. */
export const storeCanSell = (store: StoreSellingFacts) =>
  store.isOpen &&
  store.canTakePayment &&
  store.payoutAccount !== null &&
  store.canShip &&
  store.shippingRates.length > 0;

/**
 * The rule as a SQL boolean on the `stores` row aliased `alias` (trusted text, never user input:
 * `alias` must be a plain identifier).
 */
export const storeCanSellSql = (alias: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`not an SQL alias: ${alias}`);
  return `(${alias}.is_open AND ${alias}.can_take_payment AND ${alias}.payout_account IS NOT NULL AND ${alias}.can_ship AND EXISTS (SELECT 1 FROM shipping_rates sellable_rate WHERE sellable_rate.store_id = ${alias}.id))`;
};

/** The rule as a Prisma `where` on stores (a plain object: the domain holds no Prisma types). */
export const storeCanSellWhere = {
  isOpen: true,
  canTakePayment: true,
  payoutAccount: { not: null },
  canShip: true,
  shippingRates: { some: {} },
} as const;
