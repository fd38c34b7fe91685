/** The deliver-webhooks Inngest function, run with @inngest/test against a real database and a loopback receiver. */
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { createPartner } from "../../../../prisma/factories";
import { db } from "../../../platform/db";
import { startReceiver } from "../../../testing/webhook-receiver";
import { createEndpoint, sendTestEvent } from "../../../partners/webhooks/endpoints";
import {
  deliverWebhooks,
  webhookRecordedEvent,
} from "../../../partners/webhooks/deliver-webhooks-job";

describe("deliver-webhooks function", () => {
  it("delivers what is due in rounds until a round finds nothing, each attempt signed and verified", async () => {
    const receiver = await startReceiver();
    try {
      const partner = await createPartner();
      const owner = { clientId: partner.client.id, personId: null };
      const endpoint = await createEndpoint(db(), owner, {
        url: receiver.url,
        eventTypes: ["checkout.paid"],
        maxPerOwner: 10,
        now: new Date(),
      });
      receiver.setSecrets([endpoint.secret]);
      const ids = [
        await sendTestEvent(db(), owner, endpoint.endpoint_id, new Date()),
        await sendTestEvent(db(), owner, endpoint.endpoint_id, new Date()),
      ].map((sent) => sent.event_id);
      const { result } = await new InngestTestEngine({ function: deliverWebhooks }).execute({
        events: [{ name: webhookRecordedEvent, data: {} }],
      });
      expect((result as { attempts: number }).attempts).toBeGreaterThanOrEqual(2);
      expect(receiver.received.map((entry) => entry.id).sort()).toEqual([...ids].sort());
      expect(receiver.received.every((entry) => entry.verified)).toBe(true);
      expect(
        await db().webhookDelivery.count({ where: { eventId: { in: ids }, status: "delivered" } }),
      ).toBe(2);
    } finally {
      await receiver.close();
    }
  });
});
