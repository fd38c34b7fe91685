/**
 * The in-process sweep against a blackholed SMTP server (accepts the connection, never answers):
 * sending gives up within seconds and the email waits in the outbox for its retry, and meanwhile
 * checkouts still expire and held payments still settle, because each task runs in its own loop.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { fixedClock } from "../../platform/clock";
import { db } from "../../platform/db";
import { resetEnv } from "../../platform/env";
import { enqueueEmail } from "../../platform/mail/outbox";
import { deliverDueEmails, retryDelayMs, smtpTransport } from "../../platform/mail/sender";
import { testCards } from "../../payments/sandbox-cards";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";
import { startSweep } from "./sweep";

let blackhole: Server;
let blackholeUrl: string;
const sockets: Socket[] = [];
let token: string;
let storeId: number;

beforeAll(async () => {
  blackhole = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => blackhole.listen(0, "127.0.0.1", resolve));
  blackholeUrl = `smtp://127.0.0.1:${(blackhole.address() as { port: number }).port}`;
  process.env.SMTP_URL = blackholeUrl;
  resetEnv();
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blackhole.close(resolve));
});

const newCheckout = async () => {
  const item = await createItem({ storeId, priceCents: 5000 });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: "buyer@example.ca",
  });
  return JSON.parse(text).checkout_id as string;
};

const eventually = async (check: () => Promise<boolean>, ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
};

describe("sweep with a blackholed SMTP server", () => {
  it("a send gives up within seconds; the email stays pending with a backoff", async () => {
    await enqueueEmail(db(), {
      to: "slow@example.ca",
      template: "verify-email",
      props: { name: "Ana", confirmUrl: "http://localhost:3000/verify-email?token=x" },
    });
    const now = new Date();
    const started = Date.now();
    const result = await deliverDueEmails({
      db: db(),
      now,
      transport: smtpTransport(blackholeUrl),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toEqual({ sent: 0, failed: 1, more: false });
    const row = await db().emailMessage.findFirstOrThrow({ where: { to: "slow@example.ca" } });
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.nextAttemptAt.getTime()).toBe(now.getTime() + retryDelayMs(1));
  }, 15_000);

  it("checkouts expire and held payments settle while email delivery hangs", async () => {
    await enqueueEmail(db(), {
      to: "hang@example.ca",
      template: "verify-email",
      props: { name: "Bo", confirmUrl: "http://localhost:3000/verify-email?token=y" },
    });
    const lapsed = await newCheckout();
    await db().checkout.update({
      where: { id: lapsed },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    // A paid checkout whose capture was lost in a crash: settlement must capture it.
    const paid = await newCheckout();
    await pageCaller().checkoutPage.pay({
      id: paid,
      accept_terms: true,
      method: {
        type: "card",
        number: testCards.succeeds,
        exp_month: 12,
        exp_year: 2034,
        cvc: "123",
      },
    });
    const payment = await db().payment.findFirstOrThrow({ where: { checkoutId: paid } });
    await db().payment.update({ where: { id: payment.id }, data: { status: "authorized" } });

    const sweep = startSweep({
      intervalMs: 100,
      clock: fixedClock(new Date(Date.now() + 120_000)),
    });
    try {
      const isExpired = async () =>
        (await db().checkout.findUniqueOrThrow({ where: { id: lapsed } })).status === "expired";
      const isCaptured = async () =>
        (await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status === "captured";
      expect(await eventually(async () => (await isExpired()) && (await isCaptured()), 4_000)).toBe(
        true,
      );
    } finally {
      const stopping = sweep.stop();
      for (const socket of sockets) socket.destroy();
      await stopping;
    }
  }, 15_000);
});
