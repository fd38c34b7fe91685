/** What other capabilities and the edges may use of accounts: everything else in the folder is its own. */
export {
  ZEmail,
  ZMeResponse,
  ZNoQuery,
  ZPersonName,
  ZSetSpendingLimitsInput,
} from "./account.schema";
export type { TSpendingSettingsResponse } from "./account.schema";
export { completeCardSetup } from "./complete-card-setup";
export { accountProcedures, savedCardProcedures } from "./procedures";
export { checkCardToSave, saveCardForPerson } from "./save-card-for-person";
export type { Card } from "./save-card-for-person";
export { readSavedCard, toSavedCardResponse } from "./saved-card.queries";
export { ZCardNumber } from "./saved-card.schema";
export type { TSavedCard, TSavedCardResponse } from "./saved-card.schema";
export { shopperAuthRouter } from "./sign-up/procedures";
export { ZPassword } from "./sign-up/shopper-auth.schema";
export {
  readSpendingSettings,
  rowToSpendingSettingsResponse,
  spendingColumnsSql,
  spendingSettingsOf,
} from "./spending.queries";
export type { SpendingRow } from "./spending.queries";
export {
  ZConnectedApp,
  ZDisconnectAppInput,
  ZSetPurchasesPausedInput,
  ZSpendingSettingsResponse,
} from "./account.schema";
export { spendingSettingsSelect, toSpendingSettingsResponse } from "./spending.queries";
