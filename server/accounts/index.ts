/** What other capabilities and the edges may use of accounts: everything else in the folder is its own. */
export {
  ZEmail,
  ZMeResponse,
  ZNoQuery,
  ZPersonName,
  ZSetSpendingLimitsInput,
} from "./account.schema";
export type { TSpendingSettingsResponse } from "./account.schema";
export {
  rowToSpendingSettingsResponse,
  toShippingAddress,
  toSavedCardResponse,
  toSpendingSettingsResponse,
} from "./account-views";
export { completeCardSetup } from "./complete-card-setup";
export { accountProcedures, savedCardProcedures } from "./procedures";
export { checkCardToSave, saveCardForPerson } from "./save-card-for-person";
export type { Card } from "./save-card-for-person";
export { ZCardNumber } from "./saved-card.schema";
export type { TSavedCard, TSavedCardResponse } from "./saved-card.schema";
export { shopperAuthRouter } from "./sign-up/procedures";
export { ZPassword } from "./sign-up/shopper-auth.schema";
export {
  findEmail,
  findEmails,
  findPersonByEmail,
  findProfile,
  flipPurchasesPaused,
  insertPerson,
  isEmailConfirmed,
  lockPerson,
  lockPersons,
  readMailboxOwner,
  readReadingPreferences,
  readReadingPreferencesOf,
  readingOf,
  readSpendingRow,
  readSpendingSettings,
  spendingColumnsSql,
  spendingSettingsOf,
  updateSpendingLimits,
} from "./store/persons";
export type { ReadingPreferences, SpendingRow } from "./store/persons";
export { readSavedCard } from "./store/saved-cards";
export { findShippingAddress } from "./store/shipping-addresses";
export {
  ZConnectedApp,
  ZDisconnectAppInput,
  ZSetPurchasesPausedInput,
  ZSpendingSettingsResponse,
} from "./account.schema";
