/** The application router: one sub-router per resource. */
import { catalogRouter } from "../../catalogue/procedures";
import { checkoutRouter } from "../../checkout/procedures";
import { checkoutPageRouter } from "../../checkout/hosted/procedures";
import { ordersRouter } from "../../checkout/orders/procedures";
import { sandboxRouter } from "../../sandbox/procedures";
import { mailboxRouter } from "../../sandbox/mailbox-procedures";
import { accountRouter } from "../../accounts/procedures";
import { developersRouter } from "../../partners/procedures";
import { shopperAuthRouter } from "../../accounts/sign-up/procedures";
import { purchasePageRouter } from "../../purchases/cancel-page-procedures";
import { purchasesRouter } from "../../purchases/procedures";
import { priceAlertsRouter } from "../../price-alerts/procedures";
import { webhooksRouter } from "../../partners/webhooks/procedures";
import { priceWatchesRouter } from "../../price-watches/procedures";
import { priceWatchPageRouter } from "../../price-watches/cancel-page-procedures";
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
  priceAlerts: priceAlertsRouter,
  webhooks: webhooksRouter,
  priceWatches: priceWatchesRouter,
  priceWatchPage: priceWatchPageRouter,
});

export type AppRouter = typeof appRouter;
