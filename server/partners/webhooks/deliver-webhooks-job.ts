/**
 * Delivers due webhooks with an Inngest server: every minute (and at once on a webhook.recorded
 * event), the same deliverDueWebhooks the in-process sweep runs, round after round while a round
 * found work. Idempotent: deliveries are claimed with a lease, so a retried step or a concurrent
 * sweep never sends one attempt twice on purpose (at least once, deduplicated on webhook-id).
 */
import { systemClock } from "../../platform/clock";
import { db } from "../../platform/db";
import { deliverDueWebhooks } from "./deliver";
import { inngest } from "../../platform/jobs/client";

export const webhookRecordedEvent = "shopping/webhook.recorded";

const maxRounds = 20;

export const deliverWebhooks = inngest.createFunction(
  {
    id: "deliver-webhooks",
    triggers: [{ cron: "* * * * *" }, { event: webhookRecordedEvent }],
    concurrency: { limit: 1 },
  },
  async ({ step }) => {
    let total = 0;
    for (let round = 0; round < maxRounds; round++) {
      const counts = await step.run(`deliver-round-${round}`, () =>
        deliverDueWebhooks({ db: db(), now: systemClock.now() }),
      );
      const done = counts.delivered + counts.failed + counts.dropped;
      total += done;
      if (done === 0) break;
    }
    return { attempts: total };
  },
);
