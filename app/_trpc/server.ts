/** The server-side caller for pages and server actions: same procedures, the signed-in shopper as actor. */
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { currentPersonId } from "@/server/auth";
import { signInPath } from "@/server/auth";
import { clientIp } from "@/server/platform/http/client-ip";
import { clientRequestIdOf, requestIdFrom } from "@/server/platform/http/request-id";
import { createInnerContext } from "@/server/platform/trpc/context";
import { createCaller } from "@/server/edges/trpc/caller";

const callerFor = async (personId: string | undefined) => {
  const requestHeaders = await headers();
  // The address travels in the context so a procedure can limit per address (the hosted page's pay attempts).
  const clientAddress = clientIp(requestHeaders);
  // The front door's id, so a fault a page logs carries the reference the answer's X-Request-Id shows.
  const requestId = requestIdFrom(requestHeaders.get("x-request-id"));
  return createCaller(
    createInnerContext({
      requestId,
      clientRequestId: clientRequestIdOf(requestHeaders),
      actor: personId ? { kind: "person", personId } : { kind: "anonymous" },
      clientAddress,
    }),
  );
};

export const pageCaller = async () => callerFor(await currentPersonId());

/**
 * The caller for a signed-in shopper's page: a signed-out visitor is sent to sign in (Next's
 * redirect, which Next answers as a 307 and never logs) before any procedure runs. The account
 * layout redirects too, but Next renders a layout and its page at the same time, so a page that
 * called its procedure anyway threw 401 and Next logged it with a stack on every signed-out visit
 * (issue 24, section 5).
 */
export const shopperPageCaller = async (path: string) => {
  const personId = await currentPersonId();
  if (!personId) redirect(signInPath(path));
  return callerFor(personId);
};
