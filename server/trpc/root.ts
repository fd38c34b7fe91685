/** The application router: one sub-router per resource. */
import { catalogRouter } from "../routers/catalog/router";
import { checkoutRouter } from "../routers/checkout/router";
import { checkoutPageRouter } from "../routers/checkout-page/router";
import { ordersRouter } from "../routers/orders/router";
import { sandboxRouter } from "../routers/sandbox/router";
import { mailboxRouter } from "../routers/mailbox/router";
import { accountRouter } from "../routers/account/router";
import { developersRouter } from "../routers/developers/router";
import { shopperAuthRouter } from "../routers/shopper-auth/router";
import { purchasePageRouter } from "../routers/purchase-page/router";
import { purchasesRouter } from "../routers/purchases/router";
import { priceAlertsRouter } from "../routers/price-alerts/router";
import { webhooksRouter } from "../routers/webhooks/router";
import { priceWatchesRouter } from "../routers/price-watches/router";
import { priceWatchPageRouter } from "../routers/price-watch-page/router";
import { router } from "./init";

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
  priceAlerts: priceAlertsRouter,
  webhooks: webhooksRouter,
  priceWatches: priceWatchesRouter,
  priceWatchPage: priceWatchPageRouter,
});

export type AppRouter = typeof appRouter;
