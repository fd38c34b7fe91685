/** The server-side caller for pages and server actions: same procedures, the signed-in shopper as actor. */
import "server-only";
import { randomUUID } from "node:crypto";
import { currentPersonId } from "@/server/auth/session";
import { createInnerContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/caller";

export const pageCaller = async () => {
  const personId = await currentPersonId();
  return createCaller(createInnerContext({ requestId: randomUUID(), actor: personId ? { kind: "person", personId } : { kind: "anonymous" } }));
};
