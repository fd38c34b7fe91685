/** The server-side caller for pages and server actions: same procedures, the signed-in shopper as actor. */
import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { currentPersonId } from "@/server/auth/session";
import { clientIp } from "@/server/http/client-ip";
import { createInnerContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/caller";

export const pageCaller = async () => {
  const personId = await currentPersonId();
  // The address travels in the context so a procedure can limit per address (the hosted page's pay attempts).
  const clientAddress = clientIp(await headers());
  return createCaller(createInnerContext({ requestId: randomUUID(), actor: personId ? { kind: "person", personId } : { kind: "anonymous" }, clientAddress }));
};
