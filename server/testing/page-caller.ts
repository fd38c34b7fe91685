/** The caller the hosted page uses (anonymous actor: the checkout id is the capability), optionally from a client address as app/_trpc/server.ts passes it. */
import { createInnerContext } from "../platform/trpc/context";
import { createCaller } from "../edges/trpc/caller";
import type { Clock } from "../platform/clock";

export const pageCaller = (clock?: Clock, clientAddress?: string) =>
  createCaller(
    createInnerContext({
      requestId: "test-page",
      actor: { kind: "anonymous" },
      ...(clock ? { clock } : {}),
      ...(clientAddress ? { clientAddress } : {}),
    }),
  );
