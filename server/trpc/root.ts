/** The application router: one sub-router per resource. */
import { catalogRouter } from "../routers/catalog/router";
import { mailboxRouter } from "../routers/mailbox/router";
import { accountRouter } from "../routers/account/router";
import { developersRouter } from "../routers/developers/router";
import { shopperAuthRouter } from "../routers/shopper-auth/router";
import { router } from "./init";

export const appRouter = router({
  catalog: catalogRouter,
  mailbox: mailboxRouter,
  account: accountRouter,
  shopperAuth: shopperAuthRouter,
  developers: developersRouter,
});

export type AppRouter = typeof appRouter;
