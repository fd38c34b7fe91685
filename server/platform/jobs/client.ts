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

/**
 * Whether app/api/inngest serves the functions: Inngest is configured, or a signing key says an
 * Inngest server will call. Otherwise the sweep does the timed work and nothing may call in: the
 * route answers 404 like any unknown path (the SDK's own answer was a 500 asking for a signing key).
 */
export const isInngestServed = () =>
  isInngestConfigured() || Boolean(process.env.INNGEST_BASE_URL || process.env.INNGEST_SIGNING_KEY);
