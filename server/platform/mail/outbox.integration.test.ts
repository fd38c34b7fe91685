/** The outbox and sender against a real SMTP server: delivery, retries, dedupe, concurrency. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { startSmtpCapture } from "../../testing/smtp-capture";
import { createLinkToken, verifyLinkToken } from "./links";
import { enqueueEmail } from "./outbox";
import { deliverDueEmails, smtpTransport, type Transport } from "./sender";
import { previewProps as matchesProps } from "../../../emails/search-watch-matches";
import { previewProps as purchaseCopyProps } from "../../../emails/purchase-copy";

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp.stop());

const confirmUrl = "http://localhost:3000/verify-email?token=abc";

/** `count` verify emails, to `${prefix}0@example.ca` and on. */
const enqueueVerifyEmails = async (prefix: string, count: number) => {
  for (let i = 0; i < count; i++)
    await enqueueEmail(db(), {
      to: `${prefix}${i}@example.ca`,
      template: "verify-email",
      props: { confirmUrl },
    });
};

describe("email outbox", () => {
  it("an email written in a transaction is delivered over SMTP once", async () => {
    await db().$transaction(async (tx) => {
      await enqueueEmail(tx, {
        to: "ana@example.ca",
        template: "verify-email",
        props: { name: "Ana", confirmUrl },
      });
    });
    const first = await deliverDueEmails({
      db: db(),
      now: new Date(),
      transport: smtpTransport(smtp.url),
    });
    expect(first).toEqual({ sent: 1, failed: 0, more: false });
    const message = await smtp.waitFor("ana@example.ca");
    expect(message.subject).toBe("Confirm your email address");
    expect(message.text).toContain("Hi Ana");
    expect(message.html).toContain(confirmUrl);
    expect(
      await deliverDueEmails({ db: db(), now: new Date(), transport: smtpTransport(smtp.url) }),
    ).toEqual({ sent: 0, failed: 0, more: false });
    const row = await db().emailMessage.findFirstOrThrow({ where: { to: "ana@example.ca" } });
    expect(row).toMatchObject({ status: "sent", transport: "smtp", attempts: 1 });
  });

  it("an email rolled back with its transaction is never sent", async () => {
    await expect(
      db().$transaction(async (tx) => {
        await enqueueEmail(tx, {
          to: "rollback@example.ca",
          template: "verify-email",
          props: { confirmUrl },
        });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await db().emailMessage.count({ where: { to: "rollback@example.ca" } })).toBe(0);
  });

  it("a dedupe key writes the email once", async () => {
    for (let i = 0; i < 3; i++)
      await enqueueEmail(db(), {
        to: "once@example.ca",
        template: "verify-email",
        props: { confirmUrl },
        dedupeKey: "verify:per_1",
      });
    expect(await db().emailMessage.count({ where: { to: "once@example.ca" } })).toBe(1);
  });

  it("a failed send is retried later with backoff, then delivered", async () => {
    await enqueueEmail(db(), {
      to: "retry@example.ca",
      template: "verify-email",
      props: { confirmUrl },
    });
    const broken: Transport = {
      name: "broken",
      send: async () => {
        throw new Error("connection refused");
      },
    };
    const now = new Date();
    expect(
      (await deliverDueEmails({ db: db(), now, transport: broken })).failed,
    ).toBeGreaterThanOrEqual(1);
    const row = await db().emailMessage.findFirstOrThrow({ where: { to: "retry@example.ca" } });
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "connection refused" });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime());
    expect(
      (await deliverDueEmails({ db: db(), now, transport: smtpTransport(smtp.url) })).sent,
    ).toBe(0);
    await deliverDueEmails({
      db: db(),
      now: new Date(now.getTime() + 60_000),
      transport: smtpTransport(smtp.url),
    });
    expect((await smtp.waitFor("retry@example.ca")).subject).toBe("Confirm your email address");
  });

  it("two senders running at once deliver each email once", async () => {
    await enqueueVerifyEmails("crowd", 10);
    const transport = smtpTransport(smtp.url);
    const later = new Date(Date.now() + 3_600_000);
    const results = await Promise.all([
      deliverDueEmails({ db: db(), now: later, transport }),
      deliverDueEmails({ db: db(), now: later, transport }),
    ]);
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBeGreaterThanOrEqual(10);
    for (let i = 0; i < 10; i++) await smtp.waitFor(`crowd${i}@example.ca`);
    const crowd = smtp.messages.filter((message) => message.to[0].startsWith("crowd"));
    expect(crowd).toHaveLength(10);
  });

  it("a full batch says more is due (the sweep runs again at once); the batch that empties the outbox does not", async () => {
    await enqueueVerifyEmails("burst", 3);
    const transport = smtpTransport(smtp.url);
    const later = new Date(Date.now() + 2 * 3_600_000);
    const first = await deliverDueEmails({ db: db(), now: later, transport, limit: 2 });
    expect(first).toEqual({ sent: 2, failed: 0, more: true });
    let last = first;
    for (let run = 0; run < 10 && last.more; run++)
      last = await deliverDueEmails({ db: db(), now: later, transport, limit: 2 });
    expect(last.more).toBe(false);
    for (let i = 0; i < 3; i++) await smtp.waitFor(`burst${i}@example.ca`);
    expect(smtp.messages.filter((message) => message.to[0].startsWith("burst"))).toHaveLength(3);
  });

  it("a pooled transport sends a batch several at once over a few kept connections; ?pool=false opens one an email", async () => {
    const relay = await startSmtpCapture({ acceptDelayMs: 50 });
    try {
      await enqueueVerifyEmails("pooled", 20);
      const pooled = smtpTransport(relay.url);
      expect(pooled.parallel).toBe(5);
      const later = new Date(Date.now() + 3 * 3_600_000);
      const result = await deliverDueEmails({ db: db(), now: later, transport: pooled, limit: 40 });
      pooled.close?.();
      expect(result.failed).toBe(0);
      const pooledSent = relay.messages.filter((message) => message.to[0].startsWith("pooled"));
      expect(pooledSent).toHaveLength(20);
      expect(new Set(pooledSent.map((message) => message.to[0])).size).toBe(20);
      // Five connections at most for 20 emails, more than one of them sending at once.
      expect(relay.connections.opened).toBeLessThanOrEqual(5);
      expect(relay.connections.mostOpen).toBeGreaterThan(1);

      await enqueueVerifyEmails("single", 4);
      const single = smtpTransport(`${relay.url}?pool=false`);
      expect(single.parallel).toBe(1);
      const opened = relay.connections.opened;
      const even = new Date(later.getTime() + 3_600_000);
      expect(await deliverDueEmails({ db: db(), now: even, transport: single })).toEqual({
        sent: 4,
        failed: 0,
        more: false,
      });
      expect(relay.connections.opened - opened).toBe(4);
    } finally {
      await relay.stop();
    }
  });

  it("due emails that are not bulk go first: a sale's notifications never hold back a sign-in link or a purchase's cancel link", async () => {
    for (let i = 0; i < 6; i++)
      await enqueueEmail(db(), {
        to: `bulk${i}@example.ca`,
        template: "search-watch-matches",
        props: matchesProps,
      });
    await enqueueVerifyEmails("urgent", 2);
    await enqueueEmail(db(), {
      to: "urgent2@example.ca",
      template: "purchase-copy",
      props: purchaseCopyProps,
    });
    const order: string[] = [];
    const recording: Transport = { name: "recording", send: async ({ to }) => void order.push(to) };
    const later = new Date(Date.now() + 6 * 3_600_000);
    const first = await deliverDueEmails({ db: db(), now: later, transport: recording, limit: 4 });
    expect(first).toEqual({ sent: 4, failed: 0, more: true });
    expect(order.slice(0, 3).sort()).toEqual([0, 1, 2].map((i) => `urgent${i}@example.ca`));
    expect(order[3]).toMatch(/^bulk/);
    while ((await deliverDueEmails({ db: db(), now: later, transport: recording, limit: 4 })).more);
    expect(order.slice(3).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `bulk${i}@example.ca`));
    const rows = await db().emailMessage.findMany({
      where: { to: { in: order } },
      select: { status: true, bulk: true, template: true },
    });
    expect(rows).toHaveLength(9);
    expect(rows.every((row) => row.status === "sent")).toBe(true);
    expect(rows.filter((row) => row.bulk).map((row) => row.template)).toEqual(
      Array(6).fill("search-watch-matches"),
    );
  });
});

describe("signed links", () => {
  it("verify only for their purpose and before expiry, and refuse tampering", () => {
    const now = new Date();
    const token = createLinkToken({
      purpose: "verify-email",
      subject: "per_1",
      expiresAt: new Date(now.getTime() + 60_000),
    });
    expect(verifyLinkToken(token, "verify-email", now)).toBe("per_1");
    expect(verifyLinkToken(token, "cancel-purchase", now)).toBeUndefined();
    expect(
      verifyLinkToken(token, "verify-email", new Date(now.getTime() + 61_000)),
    ).toBeUndefined();
    const [body, signature] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ purpose: "verify-email", subject: "per_2", exp: 9999999999 }),
    ).toString("base64url");
    expect(verifyLinkToken(`${forged}.${signature}`, "verify-email", now)).toBeUndefined();
    expect(verifyLinkToken(`${body}.x`, "verify-email", now)).toBeUndefined();
  });
});
