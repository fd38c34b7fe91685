/** Payouts: what each store is owed from captured payments, and its transfers (docs/adr/0106). */
export { settleStoreShares } from "./settle-store-shares";
export { statementCells, storeStatement, toCsv } from "./statement";
export { percentToBps, storeShare } from "./shares";
export type { StoreShare } from "./shares";
export { findLedgerEntries, findSaleEntry, insertLedgerEntry, insertSaleEntries } from "./store";
