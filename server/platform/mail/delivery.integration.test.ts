/**
 * Review M1: nobody is charged without having been sent the cancel link. An email counts as
 * delivered only when an SMTP server accepted it; the sandbox mailbox (no SMTP_URL) stands in only
 * when SERVICE_ENV is sandbox. Against a real database, the sandbox processor's ledger and a real
 * SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../../prisma/factories/purchases";
import { db } from "../db";
import { sandboxProvider } from "../../payments/sandbox";
import { chargeDuePurchase } from "../../purchases/charge-purchase";
import { copyEmailKey } from "../../purchases/purchase-emails";
import { sandboxLedger } from "../../testing/purchase-ledger";
import { startSmtpCapture } from "../../testing/smtp-capture";
import { enqueueEmail } from "./outbox";
import { sandboxMailboxCounts } from "./delivery";
import { configuredTransport, deliverDueEmails, smtpTransport } from "./sender";

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp.stop());

const past = () => new Date(Date.now() - 1000);
const copyOf = (purchaseId: string) =>
  db().emailMessage.findUniqueOrThrow({ where: { dedupeKey: copyEmailKey(purchaseId) } });
const productionWithoutSmtp = { SERVICE_ENV: "production", SMTP_URL: undefined } as const;

describe("an email is delivered only when an SMTP server accepted it", () => {
  it("production without SMTP: the sender never marks an email sent; it stays pending with the reason, and goes out once SMTP is there", async () => {
    await db().$transaction((tx) =>
      enqueueEmail(tx, {
        to: "no-smtp@example.ca",
        template: "verify-email",
        props: { name: "Noa", confirmUrl: "https://shop.example.ca/verify-email?token=abc" },
      }),
    );
    const now = new Date();
    expect(
      await deliverDueEmails({
        db: db(),
        now,
        transport: configuredTransport(productionWithoutSmtp),
      }),
    ).toMatchObject({ sent: 0 });
    const row = await db().emailMessage.findFirstOrThrow({ where: { to: "no-smtp@example.ca" } });
    expect(row).toMatchObject({ status: "pending", sentAt: null, transport: null });
    expect(row.lastError).toMatch(/SMTP_URL/);
    // The same email is delivered when an SMTP server accepts it (after the backoff).
    const later = new Date(now.getTime() + 3_600_000);
    await deliverDueEmails({
      db: db(),
      now: later,
      transport: configuredTransport({ SERVICE_ENV: "production", SMTP_URL: smtp.url }),
    });
    expect((await smtp.waitFor("no-smtp@example.ca")).subject).toBe("Confirm your email address");
    expect(
      await db().emailMessage.findFirstOrThrow({ where: { to: "no-smtp@example.ca" } }),
    ).toMatchObject({ status: "sent", transport: "smtp" });
  });

  it("the sandbox mailbox counts only in the sandbox without SMTP", () => {
    expect(sandboxMailboxCounts({ SERVICE_ENV: "sandbox", SMTP_URL: undefined })).toBe(true);
    expect(sandboxMailboxCounts({ SERVICE_ENV: "sandbox", SMTP_URL: smtp.url })).toBe(false);
    expect(sandboxMailboxCounts(productionWithoutSmtp)).toBe(false);
    expect(configuredTransport({ SERVICE_ENV: "sandbox", SMTP_URL: undefined }).name).toBe(
      "sandbox",
    );
    expect(configuredTransport(productionWithoutSmtp).name).not.toBe("sandbox");
  });

  it("production without SMTP: the copy email is never delivered, so the charge releases the hold (notice_undelivered); nothing charged", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: past() });
    await deliverDueEmails({
      db: db(),
      now: new Date(),
      transport: configuredTransport(productionWithoutSmtp),
    });
    expect((await copyOf(purchase.id)).status).toBe("pending");
    expect(
      await chargeDuePurchase(db(), purchase.id, {
        now: new Date(),
        provider: sandboxProvider(),
        sandboxMailbox: sandboxMailboxCounts(productionWithoutSmtp),
      }),
    ).toMatchObject({ outcome: "cancelled" });
    expect(await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
      status: "cancelled",
      reason: "notice_undelivered",
      chargesAt: null,
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  });

  it("a copy email written only to the sandbox mailbox (status sent, transport sandbox) is not a delivery outside the sandbox: released, not charged", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: past() });
    // What the sandbox transport records: an instance that ran without SMTP, before this rule.
    await db().emailMessage.update({
      where: { dedupeKey: copyEmailKey(purchase.id) },
      data: { status: "sent", sentAt: new Date(), transport: "sandbox" },
    });
    expect(
      await chargeDuePurchase(db(), purchase.id, {
        now: new Date(),
        provider: sandboxProvider(),
        sandboxMailbox: false,
      }),
    ).toMatchObject({ outcome: "cancelled" });
    expect(await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
      status: "cancelled",
      reason: "notice_undelivered",
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  });

  it("a copy email an SMTP server accepted lets the charge go ahead", async () => {
    const { purchase, person } = await createHeldPurchase({ chargesAt: past() });
    await deliverDueEmails({ db: db(), now: new Date(), transport: smtpTransport(smtp.url) });
    await smtp.waitFor(person.email);
    expect(await copyOf(purchase.id)).toMatchObject({ status: "sent", transport: "smtp" });
    expect(
      await chargeDuePurchase(db(), purchase.id, {
        now: new Date(),
        provider: sandboxProvider(),
        sandboxMailbox: false,
      }),
    ).toMatchObject({ outcome: "paid" });
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "captured", captures: 1 });
  });
});
