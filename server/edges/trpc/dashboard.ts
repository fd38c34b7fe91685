/**
 * The router the browser reaches at /api/trpc: only the signed-in shopper's dashboard procedures
 * (spending limits, saved card), under the same paths as in the app router
 * (`account.setSpendingLimits`, `account.saveCard`). Partner, system and sandbox procedures are
 * not in it, so no request to /api/trpc can reach them.
 */
import { dashboardProcedures } from "../../dashboard";
import { router } from "../../platform/trpc/init";

export const dashboardRouter = router({ account: router(dashboardProcedures) });

export type DashboardRouter = typeof dashboardRouter;
