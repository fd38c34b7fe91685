/**
 * POST /stripe/webhook as `npm start` serves it: the front door, then the lean node:http layer
 * (prefix `stripe/webhook`), then the route handler app/stripe/webhook/route.ts with the
 * configuration from the environment. The bytes Stripe signed are the bytes verified: a body with
 * its own whitespace and multi-byte characters verifies (any re-serialisation would break it).
 * No partner token is asked for; the body is capped.
 */
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../platform/db";
import { resetEnv } from "../../platform/env";
import { createFrontServer } from "../http/front-door";
import { createLeanApi } from "../http/lean-api";
import { maxStripeEventBytes } from "./endpoint";

const secret = `whsec_${randomBytes(24).toString("hex")}`;
let server: Server;
let base: string;

beforeAll(async () => {
  process.env.STRIPE_WEBHOOK_SECRET = secret;
  resetEnv();
  const lean = await createLeanApi({
    appDir: path.resolve(__dirname, "../../../app"),
    prefixes: ["stripe/webhook"],
    origin: "http://localhost:3000",
  });
  expect(lean.routes).toEqual([path.join("stripe/webhook/route.ts")]);
  server = createFrontServer({
    api: lean.handle,
    next: (_request, response) => void response.writeHead(599).end("next"),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A refund event written as Stripe writes it: pretty-printed, with non-ASCII text. */
const refundPayload = (id: string) =>
  `{\n  "id": "${id}",\n  "object": "event",\n  "created": ${Math.floor(Date.now() / 1000)},\n  "type": "charge.refunded",\n  "data": {\n    "object": {\n      "id": "ch_http",\n      "object": "charge",\n      "payment_intent": "pi_http",\n      "description": "Manteau en laine — taille M, Québec ✓"\n    }\n  }\n}`;

const post = (body: string, headers: Record<string, string>) =>
  fetch(`${base}/stripe/webhook`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

describe("POST /stripe/webhook through node:http", () => {
  it("verifies the raw bytes Stripe signed and records the event, with no partner token", async () => {
    const id = `evt_${randomBytes(8).toString("hex")}`;
    const payload = refundPayload(id);
    const response = await post(payload, {
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(await response.json()).toEqual({ received: true, outcome: "processed" });
    expect(await db().stripeEvent.findUniqueOrThrow({ where: { id } })).toMatchObject({
      type: "charge.refunded",
      objectId: "ch_http",
      paymentIntentId: "pi_http",
      // A refund of a PaymentIntent that is not one of ours.
      outcome: "not_ours",
    });
  });

  it("the same event re-serialised (as a body parser would hand it on) no longer verifies: 400 in the shared error shape", async () => {
    const id = `evt_${randomBytes(8).toString("hex")}`;
    const payload = refundPayload(id);
    const response = await post(JSON.stringify(JSON.parse(payload)), {
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "bad_request" } });
    expect(await db().stripeEvent.count({ where: { id } })).toBe(0);
  });

  it("refuses a body over the cap with 413 before verifying it, and other methods with 405", async () => {
    const big = await post("x".repeat(maxStripeEventBytes + 1), {
      "stripe-signature": "t=1,v1=00",
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: "payload_too_large" } });
    const get = await fetch(`${base}/stripe/webhook`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("OPTIONS, POST");
  });
});
