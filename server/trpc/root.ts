/** The application router: one sub-router per resource. */
import { catalogRouter } from "../routers/catalog/router";
import { mailboxRouter } from "../routers/mailbox/router";
import { router } from "./init";

export const appRouter = router({
  catalog: catalogRouter,
  mailbox: mailboxRouter,
});

export type AppRouter = typeof appRouter;
