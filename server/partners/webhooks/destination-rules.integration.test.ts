/**
 * M6: a sandbox that others can reach (its PUBLIC_URL is not loopback) sends webhooks only to public
 * addresses, as production does, and partners see generic delivery errors (the detail goes to our
 * log), so a sign-up cannot map the network the service runs in.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createPartner, createWebhookEndpoint } from "../../../prisma/factories";
import { operationHandler } from "../../edges/rest/rest-router";
import { db } from "../../platform/db";
import { callRoute } from "../../testing/rest";
import { useEnv } from "../../testing/use-env";
import { startReceiver } from "../../testing/webhook-receiver";
import { deliverDueWebhooks } from "./deliver";
import { listDeliveries, sendTestEvent } from "./endpoints";
import { captureLogLines } from "../../testing/log-capture";

const createRoute = operationHandler("POST /api/v1/webhook-endpoints");
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** This test runs as a sandbox reachable at a public address. */
const useReachableSandbox = () =>
  useEnv({
    PUBLIC_URL: "https://sandbox.shop.example",
    APP_SECRET: "s".repeat(40),
    SERVICE_ENV: "sandbox",
  });

const deliverTestEvent = async (url: string) => {
  const { owner, endpointId } = await createWebhookEndpoint(url);
  const now = new Date();
  const { event_id } = await sendTestEvent(db(), owner, endpointId, now);
  await deliverDueWebhooks({ db: db(), now });
  const [shown] = await listDeliveries(db(), owner, endpointId, { limit: 1 });
  return {
    shown,
    delivery: await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event_id } }),
  };
};

describe("a sandbox reachable from elsewhere", () => {
  it("sends nothing to loopback or private addresses, and tells the partner only that the connection failed", async () => {
    useReachableSandbox();
    const logs = captureLogLines();
    const { shown, delivery } = await deliverTestEvent(receiver.url);
    expect(receiver.received).toHaveLength(0);
    expect(delivery).toMatchObject({
      status: "pending",
      responseStatus: null,
      lastError: "connection failed",
    });
    expect(shown.last_error).toBe("connection failed");
    // The detail (which address was refused) is in our log, not in what the partner sees.
    expect(logs.text()).toContain("127.0.0.1");
  });

  it("refuses plain http even to a loopback host at registration", async () => {
    useReachableSandbox();
    const token = await (await createPartner()).token();
    const response = await callRoute(createRoute, {
      path: "/webhook-endpoints",
      token,
      body: { url: receiver.url, event_types: ["checkout.paid"] },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).error.fields.url).toContain("https");
  });
});

describe("a developer's own sandbox (loopback PUBLIC_URL)", () => {
  it("delivers to loopback and shows generic errors: connection failed, HTTP 500", async () => {
    const delivered = await deliverTestEvent(receiver.url);
    expect(delivered.delivery.status).toBe("delivered");
    const closedPort = await deliverTestEvent("http://127.0.0.1:1/hooks");
    expect(closedPort.delivery.lastError).toBe("connection failed");
    expect(closedPort.shown.last_error).toBe("connection failed");
    const failing = await startReceiver({ answer: () => 500 });
    onTestFinished(() => failing.close());
    const answered = await deliverTestEvent(failing.url);
    expect(answered.delivery).toMatchObject({ responseStatus: 500, lastError: "HTTP 500" });
  });

  it("does not follow a redirect, wherever it points (B2-24): the attempt fails and the target is never asked", async () => {
    const target = await startReceiver();
    onTestFinished(() => target.close());
    const redirecting = createServer((_request, response) =>
      response.writeHead(302, { location: target.url }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => void redirecting.close());
    const { port } = redirecting.address() as AddressInfo;
    const attempt = await deliverTestEvent(`http://127.0.0.1:${port}/hooks`);
    expect(attempt.delivery).toMatchObject({
      responseStatus: 302,
      lastError: "HTTP 302 (redirects are not followed)",
    });
    expect(target.received).toHaveLength(0);
  });
});
