/**
 * Webhooks end to end on a real loopback receiver that verifies each request with the
 * standardwebhooks package's own verifier: endpoints through their REST handlers, events written
 * by the state writers (a checkout paid and cancelled, an order shipped, purchases held and
 * cancelled), retries with the same webhook-id, disabling after 5 days, rotation, ordering, and
 * isolation between clients and persons.
 */
import { randomId } from "../../core/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { createHeldPurchase } from "../../../prisma/factories/purchases";
import { issueAccessToken } from "../../auth/tokens";
import { disconnectApp } from "../../oauth/grants";
import { fixedClock } from "../../platform/clock";
import { db } from "../../platform/db";
import { paymentProvider } from "../../payments";
import { cancelHeld } from "../../purchases/purchase-hold";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";
import { partnerCaller } from "../../testing/callers";
import { pageCaller } from "../../testing/page-caller";
import { callRoute } from "../../testing/rest";
import { operationHandler } from "../../edges/rest/rest-router";
import { type Received, startReceiver } from "../../testing/webhook-receiver";
import { readOwnPurchase } from "../../purchases/store/own-purchases";
import { deliverDueWebhooks } from "./deliver";
import { sendTestEvent } from "./endpoints";
import { retryDelayMs } from "./retry-schedule";

const listRoute = operationHandler("GET /api/v1/webhook-endpoints");
const createRoute = operationHandler("POST /api/v1/webhook-endpoints");
const deleteRoute = operationHandler("DELETE /api/v1/webhook-endpoints/{endpoint_id}");
const testRoute = operationHandler("POST /api/v1/webhook-endpoints/{endpoint_id}/test");
const rotateRoute = operationHandler("POST /api/v1/webhook-endpoints/{endpoint_id}/rotate-secret");
const cancelRoute = operationHandler("POST /api/v1/checkout/sessions/{checkout_id}/cancel");
const shipRoute = operationHandler("POST /api/v1/sandbox/orders/{order}/ship");

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type Answer = (received: Received, count: number) => number;
let receiver: Receiver;
let store: { id: number };

beforeAll(async () => {
  receiver = await startReceiver();
  store = await createStore();
});
afterAll(() => receiver.close());

const register = async (token: string, eventTypes: string[], url = receiver.url) => {
  const response = await callRoute(createRoute, {
    path: "/webhook-endpoints",
    token,
    body: { url, event_types: eventTypes },
  });
  return { status: response.status, body: await response.json() };
};

/** A fresh receiver with the endpoint's secret, so each test reads only its own deliveries. */
const withReceiver = async <T>(run: (receiver: Receiver) => Promise<T>, answer?: Answer) => {
  const own = await startReceiver({ answer });
  try {
    return await run(own);
  } finally {
    await own.close();
  }
};

const drain = async (now = new Date()) => {
  for (let round = 0; round < 10; round++) {
    const counts = await deliverDueWebhooks({ db: db(), now });
    if (counts.delivered + counts.failed + counts.dropped === 0) return;
  }
};

const newCheckout = async (token: string) => {
  const item = await createItem({ storeId: store.id, priceCents: 4200 });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: "buyer@example.ca",
  });
  return JSON.parse(text).checkout_id as string;
};

const card = {
  type: "card" as const,
  number: "4242 4242 4242 4242",
  exp_month: 12,
  exp_year: 2034,
  cvc: "123",
};

describe("webhook endpoints over REST", () => {
  it("registers with a secret shown once, lists without it, refuses plain http to a non-loopback host, and deletes", async () => {
    const partner = await createPartner();
    const token = await partner.token();
    const created = await register(token, ["checkout.paid", "checkout.paid"]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      endpoint_id: expect.stringMatching(/^we_/),
      url: receiver.url,
      event_types: ["checkout.paid"],
      status: "enabled",
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = await (await callRoute(listRoute, { path: "/webhook-endpoints", token })).json();
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).not.toHaveProperty("secret");
    expect(JSON.stringify(listed)).not.toContain(created.body.secret);
    // The list takes no query parameters: an unknown one is ignored, as everywhere in the API (clients evolve additively).
    const paged = await callRoute(listRoute, { path: "/webhook-endpoints?page=2", token });
    expect(paged.status).toBe(200);
    expect((await paged.json()).data).toHaveLength(1);
    const refused = await register(token, ["checkout.paid"], "http://partner.example/hooks");
    expect(refused).toMatchObject({
      status: 422,
      body: {
        error: { code: "invalid_request", fields: { url: expect.stringContaining("https") } },
      },
    });
    expect((await register(token, ["order.eaten"])).status).toBe(422);
    const id = created.body.endpoint_id;
    // Another client's token cannot see or delete it.
    const stranger = await (await createPartner()).token();
    expect(
      (
        await callRoute(deleteRoute, {
          method: "DELETE",
          path: `/webhook-endpoints/${id}`,
          token: stranger,
          params: { endpoint_id: id },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await callRoute(deleteRoute, {
          method: "DELETE",
          path: `/webhook-endpoints/${id}`,
          token,
          params: { endpoint_id: id },
        })
      ).status,
    ).toBe(204);
    expect(
      (await (await callRoute(listRoute, { path: "/webhook-endpoints", token })).json()).data,
    ).toEqual([]);
  });

  it("the test event reaches the receiver signed per Standard Webhooks, verified by the package's verifier", async () => {
    await withReceiver(async (own) => {
      const token = await (await createPartner()).token();
      const { body } = await register(token, ["checkout.paid"], own.url);
      own.setSecrets([body.secret]);
      const sent = await callRoute(testRoute, {
        path: `/webhook-endpoints/${body.endpoint_id}/test`,
        token,
        params: { endpoint_id: body.endpoint_id },
        method: "POST",
      });
      expect(sent.status).toBe(202);
      const { event_id } = await sent.json();
      await drain();
      expect(own.received).toHaveLength(1);
      expect(own.received[0]).toMatchObject({
        id: event_id,
        verified: true,
        payload: { type: "webhook.test", data: { endpoint_id: body.endpoint_id } },
      });
      const delivery = await db().webhookDelivery.findFirstOrThrow({
        where: { eventId: event_id },
      });
      expect(delivery).toMatchObject({ status: "delivered", responseStatus: 200, attempts: 1 });
    });
  });
});

describe("events from the state writers", () => {
  it("checkout.paid carries GET /checkout/sessions/{id}; checkout.cancelled and order.shipped follow; another client's endpoint hears nothing", async () => {
    await withReceiver(async (own) => {
      const partner = await createPartner();
      const token = await partner.token();
      const { body } = await register(
        token,
        ["checkout.paid", "checkout.cancelled", "order.shipped"],
        own.url,
      );
      own.setSecrets([body.secret]);
      const otherToken = await (await createPartner()).token();
      const other = await register(
        otherToken,
        ["checkout.paid", "checkout.cancelled", "order.shipped"],
        own.url,
      );
      own.setSecrets([body.secret, other.body.secret]);

      const paidId = await newCheckout(token);
      const outcome = await pageCaller().checkoutPage.pay({
        id: paidId,
        accept_terms: true,
        method: card,
      });
      expect(outcome).toMatchObject({ outcome: "paid" });
      const cancelledId = await newCheckout(token);
      expect(
        (
          await callRoute(cancelRoute, {
            method: "POST",
            path: `/checkout/sessions/${cancelledId}/cancel`,
            token,
            params: { checkout_id: cancelledId },
          })
        ).status,
      ).toBe(200);
      const detail = await partnerCaller(undefined, partner.client.id).checkout.getSession({
        checkout_id: paidId,
      });
      const orderNumber = detail.stores[0].order!.order_number;
      const shipped = await callRoute(shipRoute, {
        path: `/sandbox/orders/${orderNumber}/ship`,
        token,
        params: { order: orderNumber },
        body: { carrier: "Purolator", tracking_number: "329001234567" },
      });
      expect(shipped.status).toBe(200);
      // The other partner's own checkout, paid: only its endpoint hears it.
      const othersId = await newCheckout(otherToken);
      await pageCaller().checkoutPage.pay({ id: othersId, accept_terms: true, method: card });
      await drain();

      const mine = own.received.filter((entry) => entry.verifiedBy.includes(0));
      expect(mine.every((entry) => entry.verified)).toBe(true);
      expect(mine.map((entry) => entry.payload.type).sort()).toEqual([
        "checkout.cancelled",
        "checkout.paid",
        "order.shipped",
      ]);
      const paid = mine.find((entry) => entry.payload.type === "checkout.paid")!;
      expect(paid.payload.data).toEqual(detail);
      expect(
        mine.find((entry) => entry.payload.type === "checkout.cancelled")!.payload.data,
      ).toMatchObject({ checkout_id: cancelledId, status: "cancelled" });
      expect(
        mine.find((entry) => entry.payload.type === "order.shipped")!.payload.data,
      ).toMatchObject({
        checkout_id: paidId,
        order_number: orderNumber,
        fulfilment: "shipped",
        tracking: { carrier: "Purolator", tracking_number: "329001234567" },
      });
      const theirs = own.received.filter((entry) => entry.verifiedBy.includes(1));
      expect(
        theirs.map((entry) => (entry.payload.data as { checkout_id: string }).checkout_id),
      ).toEqual([othersId]);
      // No request verified by both: no event of one client reached the other's endpoint.
      expect(own.received.every((entry) => entry.verifiedBy.length === 1)).toBe(true);
    });
  });

  it("purchase events reach only the assistant the person authorised, only while linked; a person's endpoint hears only that person", async () => {
    await withReceiver(async (own) => {
      const { purchase, agent, person } = await createHeldPurchase();
      const grant = async (personId: string) =>
        db().oAuthGrant.create({
          data: {
            id: randomId("grt_"),
            clientId: agent.id,
            personId,
            scopes: ["purchase:write"],
            audience: "api",
            consentNonce: randomId("n_"),
            expiresAt: new Date(Date.now() + 86_400_000),
          },
        });
      await grant(person.id);
      const clientToken = (
        await issueAccessToken(db(), {
          clientId: agent.id,
          scopes: ["purchase:write"],
          personId: person.id,
          now: new Date(),
        })
      ).token;
      const personEndpoint = await register(
        clientToken,
        ["purchase.held", "purchase.cancelled", "purchase.paid"],
        own.url,
      );
      // A second held purchase of the same assistant for another person, who also linked it.
      const second = await createHeldPurchase();
      await db().purchase.update({
        where: { id: second.purchase.id },
        data: { clientId: agent.id },
      });
      await grant(second.person.id);
      own.setSecrets([personEndpoint.body.secret]);
      const now = new Date();
      await cancelHeld(db(), paymentProvider(), { id: second.purchase.id, event: "cancel", now });
      await cancelHeld(db(), paymentProvider(), { id: purchase.id, event: "cancel", now });
      await drain();
      // The endpoint registered with the first person's token hears only the first person's purchase.
      expect(
        own.received.map((entry) => [
          entry.payload.type,
          (entry.payload.data as { purchase_id: string }).purchase_id,
        ]),
      ).toEqual([["purchase.cancelled", purchase.id]]);
      // The payload is the purchase as GET /purchases/{id} answers it.
      expect(own.received[0].payload.data).toEqual(
        await readOwnPurchase(db(), { kind: "system" }, purchase.id),
      );

      // Disconnected: nothing more about that person reaches the assistant.
      const third = await createHeldPurchase({ person });
      await db().purchase.update({
        where: { id: third.purchase.id },
        data: { clientId: agent.id },
      });
      await disconnectApp(db(), { personId: person.id, clientId: agent.id, now: new Date() });
      await cancelHeld(db(), paymentProvider(), {
        id: third.purchase.id,
        event: "cancel",
        now: new Date(),
      });
      await drain();
      expect(own.received).toHaveLength(1);
      expect(await db().webhookEvent.count({ where: { objectId: third.purchase.id } })).toBe(0);
    });
  });
});

describe("delivery", () => {
  it("a receiver failing three times then succeeding gets the event exactly once more, with the same webhook-id", async () => {
    await withReceiver(
      async (own) => {
        const partner = await createPartner();
        const { body } = await register(await partner.token(), ["checkout.paid"], own.url);
        own.setSecrets([body.secret]);
        const clock = fixedClock(new Date());
        const { event_id } = await sendTestEvent(
          db(),
          { clientId: partner.client.id, personId: null },
          body.endpoint_id,
          clock.now(),
        );
        for (let attempt = 1; attempt <= 6; attempt++) {
          await deliverDueWebhooks({ db: db(), now: clock.now() });
          clock.advance(retryDelayMs(attempt));
        }
        expect(own.received.map((entry) => entry.id)).toEqual([
          event_id,
          event_id,
          event_id,
          event_id,
        ]);
        expect(own.received.every((entry) => entry.verified)).toBe(true);
        expect(
          await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event_id } }),
        ).toMatchObject({ status: "delivered", attempts: 4, responseStatus: 200 });
        expect(
          await db().webhookEndpoint.findUniqueOrThrow({ where: { id: body.endpoint_id } }),
        ).toMatchObject({ status: "enabled", failingSince: null });
      },
      (_received: Received, count: number) => (count <= 3 ? 503 : 200),
    );
  });

  it("a receiver down for the whole window: each event fails after 3 days, the endpoint is disabled after 5 days of failures and its owner emailed", async () => {
    await withReceiver(
      async (own) => {
        const partner = await createPartner();
        const contactEmail = `owner-${Date.now()}@partner.example`;
        await db().apiClient.update({ where: { id: partner.client.id }, data: { contactEmail } });
        const { body } = await register(await partner.token(), ["checkout.paid"], own.url);
        const owner = { clientId: partner.client.id, personId: null };
        const start = new Date();
        const clock = fixedClock(start);
        const events: string[] = [];
        for (let hour = 0; hour <= 6 * 24; hour++) {
          if (
            hour % 12 === 0 &&
            (await db().webhookEndpoint.findUniqueOrThrow({ where: { id: body.endpoint_id } }))
              .status === "enabled"
          ) {
            events.push((await sendTestEvent(db(), owner, body.endpoint_id, clock.now())).event_id);
          }
          await deliverDueWebhooks({ db: db(), now: clock.now() });
          clock.advance(3_600_000);
        }
        const endpoint = await db().webhookEndpoint.findUniqueOrThrow({
          where: { id: body.endpoint_id },
        });
        expect(endpoint.status).toBe("disabled");
        expect(endpoint.disabledAt!.getTime() - start.getTime()).toBeGreaterThanOrEqual(
          5 * 86_400_000,
        );
        expect(endpoint.disabledAt!.getTime() - start.getTime()).toBeLessThan(5.5 * 86_400_000);
        const first = await db().webhookDelivery.findFirstOrThrow({
          where: { eventId: events[0] },
        });
        expect(first.status).toBe("failed");
        expect(first.lastAttemptAt!.getTime() - start.getTime()).toBeLessThanOrEqual(
          3 * 86_400_000,
        );
        expect(first.attempts).toBeGreaterThanOrEqual(8);
        const email = await db().emailMessage.findFirstOrThrow({
          where: { to: contactEmail, template: "webhook-endpoint-disabled" },
        });
        expect(email.props).toMatchObject({ url: own.url });
        // Disabled: nothing more is attempted.
        const before = own.received.length;
        clock.advance(86_400_000);
        await deliverDueWebhooks({ db: db(), now: clock.now() });
        expect(own.received.length).toBe(before);
      },
      () => 500,
    );
  });

  it("rotation: during the overlap each delivery verifies with the old and the new secret, afterwards only with the new", async () => {
    await withReceiver(async (own) => {
      const partner = await createPartner();
      const token = await partner.token();
      const { body } = await register(token, ["checkout.paid"], own.url);
      const rotated = await (
        await callRoute(rotateRoute, {
          path: `/webhook-endpoints/${body.endpoint_id}/rotate-secret`,
          token,
          params: { endpoint_id: body.endpoint_id },
          body: { overlap_hours: 1 },
        })
      ).json();
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(body.secret);
      expect(rotated.previous_secret_until).toEqual(expect.any(String));
      own.setSecrets([body.secret, rotated.secret]);
      const owner = { clientId: partner.client.id, personId: null };
      await sendTestEvent(db(), owner, body.endpoint_id, new Date());
      await drain();
      const later = new Date(Date.now() + 2 * 3_600_000);
      await sendTestEvent(db(), owner, body.endpoint_id, later);
      await drain(later);
      expect(own.received.map((entry) => entry.verifiedBy)).toEqual([[0, 1], [1]]);
    });
  });

  it("ordering and duplicates: one sender round posts in the order the events were recorded; a lost answer brings the same webhook-id again", async () => {
    let lostOnce = false;
    await withReceiver(
      async (own) => {
        const partner = await createPartner();
        const { body } = await register(await partner.token(), ["checkout.paid"], own.url);
        own.setSecrets([body.secret]);
        const owner = { clientId: partner.client.id, personId: null };
        const now = new Date();
        const ids: string[] = [];
        for (let index = 0; index < 5; index++)
          ids.push((await sendTestEvent(db(), owner, body.endpoint_id, now)).event_id);
        await deliverDueWebhooks({ db: db(), now, concurrency: 1 });
        expect(own.received.map((entry) => entry.id)).toEqual(ids);
        // The third one's answer was lost (a 500 after the receiver took it): it comes again, same id.
        await deliverDueWebhooks({ db: db(), now: new Date(now.getTime() + retryDelayMs(1)) });
        const seen = own.received.map((entry) => entry.id);
        expect(seen).toHaveLength(6);
        expect(seen[5]).toBe(ids[2]);
        expect(new Set(seen).size).toBe(5);
      },
      (_received: Received, count: number) => {
        if (count === 3 && !lostOnce) {
          lostOnce = true;
          return 500;
        }
        return 200;
      },
    );
  });
});
