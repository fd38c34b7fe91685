/** The application router: one sub-router per resource. */
import { catalogRouter } from "../../catalogue";
import { checkoutRouter } from "../../checkout";
import { checkoutPageRouter } from "../../checkout";
import { ordersRouter } from "../../orders/index";
import { sandboxRouter } from "../../sandbox";
import { mailboxRouter } from "../../sandbox";
import { accountRouter } from "../../dashboard";
import { developersRouter } from "../../partners";
import { shopperAuthRouter } from "../../accounts";
import { purchasePageRouter } from "../../purchases";
import { purchasesRouter } from "../../purchases";
import { purchaseRefundsRouter } from "../../refunds";
import { priceAlertsRouter } from "../../price-alerts";
import { webhooksRouter } from "../../partners";
import { priceWatchesRouter } from "../../price-watches";
import { priceWatchPageRouter } from "../../price-watches";
import { searchWatchesRouter } from "../../search-watches";
import { priceWatchGroupsRouter } from "../../price-watches";
import { router } from "../../platform/trpc/init";

export const appRouter = router({
  catalog: catalogRouter,
  checkout: checkoutRouter,
  checkoutPage: checkoutPageRouter,
  orders: ordersRouter,
  sandbox: sandboxRouter,
  mailbox: mailboxRouter,
  account: accountRouter,
  shopperAuth: shopperAuthRouter,
  developers: developersRouter,
  purchasePage: purchasePageRouter,
  purchases: purchasesRouter,
  purchaseRefunds: purchaseRefundsRouter,
  priceAlerts: priceAlertsRouter,
  webhooks: webhooksRouter,
  priceWatches: priceWatchesRouter,
  priceWatchPage: priceWatchPageRouter,
  searchWatches: searchWatchesRouter,
  priceWatchGroups: priceWatchGroupsRouter,
});
