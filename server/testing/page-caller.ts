/** The caller the hosted page uses (anonymous actor: the checkout id is the capability). */
import { createInnerContext } from "../trpc/context";
import { createCaller } from "../trpc/caller";
import type { Clock } from "../clock";

export const pageCaller = (clock?: Clock) => createCaller(createInnerContext({ requestId: "test-page", actor: { kind: "anonymous" }, ...(clock ? { clock } : {}) }));
