/** The application router: one sub-router per resource. */
import { catalogRouter } from "../routers/catalog/router";
import { checkoutRouter } from "../routers/checkout/router";
import { mailboxRouter } from "../routers/mailbox/router";
import { router } from "./init";

export const appRouter = router({
  catalog: catalogRouter,
  checkout: checkoutRouter,
  mailbox: mailboxRouter,
});

export type AppRouter = typeof appRouter;
