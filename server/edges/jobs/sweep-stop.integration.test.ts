/**
 * Stopping the sweep (SIGTERM, server/edges/http/graceful-shutdown.ts): a run in progress is told to
 * stop through its signal; the tasks that claim rows with a lease finish the item under way and
 * hand back the rest at once (due again, the claim not counted), so another instance takes them
 * now instead of when the lease would have ended (up to 5 minutes later).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { enqueueEmail } from "../../platform/mail/outbox";
import { deliverDueEmails, type Transport } from "../../platform/mail/sender";
import { deliverDueWebhooks } from "../../partners/webhooks/deliver";
import { sendTestEvent } from "../../partners/webhooks/endpoints";
import { processPriceChanges } from "../../price-changes/process-price-changes";
import { setItemPrice } from "../../catalogue/set-item-price";
import { startReceiver } from "../../testing/webhook-receiver";
import { startSweep } from "./sweep";

let stopping = new AbortController();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver({ answer: () => (stopping.abort(), 200) });
});
afterAll(() => receiver.close());

describe("stopping the sweep", () => {
  it("aborts the signal of the run in progress and waits for it to end", async () => {
    let seen: AbortSignal | undefined;
    let ended = false;
    const sweep = startSweep({
      intervalMs: 10,
      tasks: [
        {
          name: "slow",
          intervalMs: 10,
          run: async ({ signal }) => {
            seen = signal;
            while (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
            await new Promise((resolve) => setTimeout(resolve, 50));
            ended = true;
          },
        },
      ],
    });
    while (!seen) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen.aborted).toBe(false);
    await sweep.stop();
    expect(seen.aborted).toBe(true);
    expect(ended).toBe(true);
  });

  it("emails: the one being sent finishes, the rest of the batch is due again at once, attempts unchanged", async () => {
    stopping = new AbortController();
    const to = `stop-${crypto.randomUUID()}@example.ca`;
    for (let index = 0; index < 3; index++)
      await enqueueEmail(db(), {
        to,
        template: "verify-email",
        props: { name: "Ana", confirmUrl: "http://localhost:3000/verify-email?token=t" },
      });
    const sent: string[] = [];
    const transport: Transport = {
      name: "test",
      send: async (message) => {
        sent.push(message.to);
        stopping.abort();
      },
    };
    const now = new Date();
    const result = await deliverDueEmails({ db: db(), now, transport, signal: stopping.signal });
    expect(result).toEqual({ sent: 1, failed: 0, more: false });
    const rows = await db().emailMessage.findMany({ where: { to }, orderBy: { status: "asc" } });
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ["pending", 0],
      ["pending", 0],
      ["sent", 1],
    ]);
    for (const row of rows.filter((candidate) => candidate.status === "pending"))
      expect(row.nextAttemptAt.getTime()).toBe(now.getTime());
    // Another instance (here: the next round) takes them at once.
    expect(await deliverDueEmails({ db: db(), now, transport })).toEqual({
      sent: 2,
      failed: 0,
      more: false,
    });
  });

  it("webhooks: the attempt under way is recorded, the deliveries not started are released", async () => {
    stopping = new AbortController();
    const partner = await createPartner();
    const owner = { clientId: partner.client.id, personId: null };
    const endpoint = await db().webhookEndpoint.create({
      data: {
        id: `we_${crypto.randomUUID()}`,
        ...owner,
        url: receiver.url,
        eventTypes: ["checkout.paid"],
        secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdA",
      },
    });
    const now = new Date();
    for (let index = 0; index < 3; index++) await sendTestEvent(db(), owner, endpoint.id, now);
    const counts = await deliverDueWebhooks({
      db: db(),
      now,
      concurrency: 1,
      signal: stopping.signal,
    });
    expect(counts).toMatchObject({ delivered: 1, failed: 0, released: 2 });
    const rows = await db().webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(rows.map((row) => [row.status, row.attempts]).sort()).toEqual([
      ["delivered", 1],
      ["pending", 0],
      ["pending", 0],
    ]);
    expect(
      rows.filter((row) => row.status === "pending").map((row) => row.nextAttemptAt.getTime()),
    ).toEqual([now.getTime(), now.getTime()]);
    expect(await deliverDueWebhooks({ db: db(), now })).toMatchObject({ delivered: 2 });
  });

  it("price changes: the event under way finishes, no more are claimed, the claimed rest is released", async () => {
    const store = await createStore();
    const ids: number[] = [];
    for (let index = 0; index < 3; index++) {
      const item = await createItem({ storeId: store.id, priceCents: 5000 });
      const change = await setItemPrice(
        db(),
        { itemId: item.id, priceCents: 4000 },
        { now: new Date() },
      );
      ids.push(change.eventId!);
    }
    const signalStop = new AbortController();
    const handled: number[] = [];
    const result = await processPriceChanges(db(), {
      now: () => new Date(),
      ids,
      signal: signalStop.signal,
      handlers: [
        {
          name: "stop-after-first",
          handle: async (_db, event) => {
            handled.push(event.id);
            signalStop.abort();
          },
        },
      ],
    });
    expect(handled).toHaveLength(1);
    expect(result).toMatchObject({ processed: 1, failed: 0 });
    const rows = await db().priceChangeEvent.findMany({ where: { id: { in: ids } } });
    const left = rows.filter((row) => row.processedAt === null);
    expect(left).toHaveLength(2);
    for (const row of left) expect(row).toMatchObject({ claimedUntil: null, attempts: 0 });
  });
});
