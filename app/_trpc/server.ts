/** The server-side caller for pages (React Server Components): same procedures, page actor. */
import "server-only";
import { randomUUID } from "node:crypto";
import { createInnerContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/caller";

export const pageCaller = async () => createCaller(createInnerContext({ requestId: randomUUID(), actor: { kind: "anonymous" } }));
