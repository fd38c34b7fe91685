import { expect, test } from "../fixtures/api-client";
import { startReceiver } from "../../server/testing/webhook-receiver";

test.describe("[WEBHOOKS] endpoints over HTTP, through the typed client (sdk/)", () => {
  test("register a loopback endpoint, send the test event, verify it with the standardwebhooks verifier, delete it", async ({
    partner,
  }) => {
    const receiver = await startReceiver();
    try {
      const created = await partner.sdk.POST("/webhook-endpoints", {
        body: { url: receiver.url, event_types: ["checkout.paid", "checkout.expired"] },
      });
      expect(created.response.status).toBe(201);
      const endpoint = created.data!;
      expect(endpoint.secret).toMatch(/^whsec_/);
      receiver.setSecrets([endpoint.secret]);
      const listed = await partner.sdk.GET("/webhook-endpoints");
      expect(listed.data!.data.map((entry) => entry.endpoint_id)).toEqual([endpoint.endpoint_id]);
      const sent = await partner.sdk.POST("/webhook-endpoints/{endpoint_id}/test", {
        params: { path: { endpoint_id: endpoint.endpoint_id } },
      });
      expect(sent.response.status).toBe(202);
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
      expect(receiver.received[0]).toMatchObject({
        id: sent.data!.event_id,
        verified: true,
        payload: { type: "webhook.test" },
      });
      const removed = await partner.sdk.DELETE("/webhook-endpoints/{endpoint_id}", {
        params: { path: { endpoint_id: endpoint.endpoint_id } },
      });
      expect(removed.response.status).toBe(204);
      expect((await partner.sdk.GET("/webhook-endpoints")).data!.data).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
