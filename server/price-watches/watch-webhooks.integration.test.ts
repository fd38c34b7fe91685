/**
 * A price watch that ends, buys or needs the person records its webhook event (price_watch.ended,
 * .fulfilled, .needs_you) in the transaction of the move, for the assistant's endpoints only; the
 * payload is the watch as GET /price-watches/{id} answers it.
 */
import { describe, expect, it } from "vitest";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import {
  cancelWatchVia,
  createBuyer,
  getWatch,
  setWatch,
  watchableItem,
} from "../testing/watch-fixtures";

const endpointFor = (clientId: string, eventTypes: string[]) =>
  db().webhookEndpoint.create({
    data: {
      id: randomId("we_"),
      clientId,
      url: "http://127.0.0.1:9/hooks",
      eventTypes,
      secret: "whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=",
    },
  });

describe("price watch webhook events", () => {
  it("a cancelled watch records price_watch.ended for its assistant's endpoint, with the watch as GET answers it; another client's endpoint gets nothing", async () => {
    const buyer = await createBuyer();
    const other = await createBuyer();
    const endpoint = await endpointFor(buyer.agent.id, [
      "price_watch.ended",
      "price_watch.fulfilled",
    ]);
    const elsewhere = await endpointFor(other.agent.id, ["price_watch.ended"]);
    const item = await watchableItem(10_000);
    const set = await setWatch(buyer.token, {
      catalog_item_id: String(item.id),
      max_price: "80.00",
      max_total: "120.00",
    });
    expect(set.status).toBe(201);
    const id = set.body.price_watch_id as number;
    expect(await db().webhookEvent.count({ where: { objectId: String(id) } })).toBe(0);

    expect((await cancelWatchVia(buyer.token, id)).status).toBe(200);
    const events = await db().webhookEvent.findMany({
      where: { objectId: String(id) },
      include: { deliveries: true },
    });
    expect(events.map((event) => event.type)).toEqual(["price_watch.ended"]);
    const payload = events[0].payload as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe("price_watch.ended");
    expect(payload.data).toEqual((await getWatch(buyer.token, id)).body);
    expect(events[0].deliveries.map((delivery) => delivery.endpointId)).toEqual([endpoint.id]);
    expect(await db().webhookDelivery.count({ where: { endpointId: elsewhere.id } })).toBe(0);
  });
});
