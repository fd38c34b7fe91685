/**
 * Acts on price changes as soon as they are recorded: the event carries the ids of the
 * price_change_events rows one change wrote, and this runs the same claim-and-handle step as the
 * sweep (processPriceChanges), so whichever gets there first handles an event and the other skips
 * it (SKIP LOCKED, lease). A lost event only means the sweep handles the rows a second later.
 */
import { systemClock } from "../platform/clock";
import { db } from "../platform/db";
import { processPriceChanges } from "./process-price-changes";
import { inngest } from "../platform/jobs/client";
import { priceChangedEvent, ZPriceChangedEvent } from "../platform/jobs/events";

export const processPriceChangesFunction = inngest.createFunction(
  { id: "process-price-changes", triggers: [{ event: priceChangedEvent }] },
  async ({ event, step }) => {
    const { price_change_ids: ids } = ZPriceChangedEvent.parse(event.data);
    return step.run("handle-price-changes", () =>
      processPriceChanges(db(), { now: () => systemClock.now(), ids }),
    );
  },
);
