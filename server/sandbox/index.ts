/** What other capabilities and the edges may use of sandbox: everything else in the folder is its own. */
export { mailboxRouter } from "./mailbox-procedures";
export { sandboxRouter } from "./procedures";
export {
  ZItemIdParams,
  ZItemPriceChange,
  ZListedItem,
  ZListItemBody,
  ZResolvePurchaseBody,
  ZSetItemPriceBody,
  ZShipOrderBody,
  ZShipOrderParams,
} from "./sandbox.schema";
