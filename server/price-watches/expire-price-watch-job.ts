/**
 * Expires a price watch at its due time: sleeps until expires_at as read from the row (so a moved
 * due time is honoured), then runs the same guarded move the sweep runs (expireWatch). A watch
 * that bought, ended or was cancelled makes it a no-op; its closed event cancels the run early.
 */
import { NonRetriableError } from "inngest";
import { systemClock } from "../platform/clock";
import { db } from "../platform/db";
import { expireWatch } from "./expire-watch";
import { findWatchExpiry } from "./store/watches";
import { inngest } from "../platform/jobs/client";
import {
  priceWatchClosedEvent,
  priceWatchSetEvent,
  ZPriceWatchEvent,
} from "../platform/jobs/events";

export const expirePriceWatch = inngest.createFunction(
  {
    id: "expire-price-watch",
    triggers: [{ event: priceWatchSetEvent }],
    cancelOn: [
      {
        event: priceWatchClosedEvent,
        if: "async.data.price_watch_id == event.data.price_watch_id",
      },
    ],
  },
  async ({ event, step }) => {
    const { price_watch_id: id } = ZPriceWatchEvent.parse(event.data);
    const due = await step.run("read-expiry", async () => {
      const watch = await findWatchExpiry(db(), id);
      if (!watch) throw new NonRetriableError(`no price watch ${id}`);
      return { status: watch.status, expiresAt: watch.expiresAt.toISOString() };
    });
    if (due.status !== "active" && due.status !== "executing")
      return { id, expired: false, status: due.status };
    await step.sleepUntil("wait-for-expiry", due.expiresAt);
    const expired = await step.run("expire", () => expireWatch(id, systemClock.now()));
    return { id, expired };
  },
);
