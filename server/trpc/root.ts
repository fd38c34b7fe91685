/** The application router: one sub-router per resource. */
import { catalogRouter } from "../routers/catalog/router";
import { router } from "./init";

export const appRouter = router({
  catalog: catalogRouter,
});

export type AppRouter = typeof appRouter;
