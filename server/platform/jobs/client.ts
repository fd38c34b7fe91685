/**
 * The Inngest client. Functions are served from app/api/inngest; events are sent only when an
 * Inngest server is configured (INNGEST_EVENT_KEY, or INNGEST_DEV for a dev server). Without one,
 * the in-process sweep (sweep.ts) moves every timed state, so nothing depends on delivery.
 */
import { Inngest } from "inngest";
import { isInngestConfiguredIn } from "../env";

export const inngest = new Inngest({ id: "shopping-api" });

/** The same rule server/platform/env.ts applies when it requires INNGEST_SIGNING_KEY in production. */
export const isInngestConfigured = () => isInngestConfiguredIn(process.env);
