/** The one server-side caller factory: REST handlers, MCP tools and jobs call procedures through it. */
import { createCallerFactory } from "../../platform/trpc/init";
import { appRouter } from "./root";

export const createCaller = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof createCaller>;
