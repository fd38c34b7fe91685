/**
 * The router the browser reaches at /api/trpc: only the signed-in shopper's dashboard procedures,
 * under the same paths as in the app router (`account.setSpendingLimits`). Partner, system and
 * sandbox procedures are not in it, so no request to /api/trpc can reach them.
 */
import { spendingProcedures } from "../routers/account/router";
import { router } from "./init";

export const dashboardRouter = router({ account: router(spendingProcedures) });

export type DashboardRouter = typeof dashboardRouter;
