/**
 * L9: one client's backlog (test events to a dead URL) cannot fill a sender round: due deliveries
 * are taken round-robin per client, at most a few per client per round, so another partner's
 * webhook goes out in the very next round.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { startReceiver } from "../../testing/webhook-receiver";
import { deliverDueWebhooks } from "./deliver";
import { sendTestEvent } from "./endpoints";
import { captureLogLines } from "../../testing/log-capture";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("fair delivery", () => {
  it("a client with 250 due deliveries to a dead URL and another with one: the other's is delivered in the first round", async () => {
    captureLogLines();
    const now = new Date();
    const noisy = await createWebhookEndpoint("http://127.0.0.1:1/dead");
    const earlier = new Date(now.getTime() - 60_000);
    for (let index = 0; index < 250; index++)
      await sendTestEvent(db(), noisy.owner, noisy.endpointId, earlier);
    const quiet = await createWebhookEndpoint(receiver.url);
    const { event_id } = await sendTestEvent(db(), quiet.owner, quiet.endpointId, now);

    const counts = await deliverDueWebhooks({ db: db(), now });
    expect(receiver.received.map((entry) => entry.id)).toEqual([event_id]);
    expect(counts.delivered).toBe(1);
    // The noisy client had its turn too, but not the whole round.
    const tried = await db().webhookDelivery.count({
      where: { endpointId: noisy.endpointId, attempts: { gt: 0 } },
    });
    expect(tried).toBeGreaterThan(0);
    expect(tried).toBeLessThan(50);
  });
});
