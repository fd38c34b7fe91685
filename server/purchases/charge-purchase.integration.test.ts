/**
 * Charging at charges_at through the sweep's due-work task, exactly once, against a real database
 * and the sandbox processor's ledger; and the two releases before a charge: item sold elsewhere and
 * a copy email not delivered in time (notice_undelivered).
 */
import { describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { dueWork } from "../edges/jobs/due-work";
import { startSweep } from "../edges/jobs/sweep";
import { fixedClock } from "../platform/clock";
import { sandboxProvider } from "../payments/sandbox";
import { sandboxLedger } from "../testing/purchase-ledger";
import { copyEmailKey } from "./purchase-emails";
import { chargeDuePurchase } from "./charge-purchase";
import { movePurchase } from "./purchase-writer";

const provider = () => sandboxProvider();
const past = () => new Date(Date.now() - 1000);
const purchaseOf = (id: string) => db().purchase.findUniqueOrThrow({ where: { id } });
const emails = (id: string) =>
  db().emailMessage.findMany({
    where: { OR: [{ dedupeKey: copyEmailKey(id) }, { dedupeKey: `purchase-closed:${id}` }] },
    select: { template: true, props: true },
  });

describe("charging a held purchase", () => {
  it("the sweep's charge task charges a due purchase once: paid, charges_at null, one capture, the charged email", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: past() });
    const notDue = await createHeldPurchase();
    const sweep = startSweep({
      intervalMs: 60_000,
      clock: fixedClock(new Date()),
      tasks: dueWork.filter((task) => task.name === "charge-purchases"),
    });
    await sweep.tick();
    await sweep.tick();
    await sweep.stop();
    expect(await purchaseOf(purchase.id)).toMatchObject({
      status: "paid",
      chargesAt: null,
      reason: null,
    });
    expect((await purchaseOf(purchase.id)).paidAt).toBeInstanceOf(Date);
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "captured",
      holds: 1,
      captures: 1,
      releases: 0,
    });
    expect(
      (await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } })).status,
    ).toBe("captured");
    expect(
      (await emails(purchase.id)).map((email) => [
        email.template,
        (email.props as { outcome?: string }).outcome,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["purchase-copy", undefined],
        ["purchase-closed", "charged"],
      ]),
    );
    // Not yet due: untouched.
    expect(await purchaseOf(notDue.purchase.id)).toMatchObject({ status: "held" });
    expect(await sandboxLedger(notDue.purchase.id)).toMatchObject({
      status: "authorized",
      captures: 0,
    });
  });

  it("a step retried after the processor captured (before we recorded it) captures nothing more and records paid", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: past() });
    const now = new Date();
    // The first run claimed the charge and the processor captured; then the process stopped.
    expect(await movePurchase(db(), { id: purchase.id, event: "claim_charge", now })).toMatchObject(
      {
        id: purchase.id,
        status: "capturing",
      },
    );
    const payment = await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } });
    await provider().capture({
      idempotencyKey: `${purchase.id}:capture`,
      paymentId: payment.processorPaymentId!,
    });
    expect(await chargeDuePurchase(db(), purchase.id, { now, provider: provider() })).toEqual({
      id: purchase.id,
      outcome: "paid",
    });
    // And once more (a duplicate event): a no-op.
    expect(await chargeDuePurchase(db(), purchase.id, { now, provider: provider() })).toEqual({
      id: purchase.id,
      outcome: "not_held",
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "captured",
      holds: 1,
      captures: 1,
      releases: 0,
    });
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `purchase-closed:${purchase.id}` } }),
    ).toBe(1);
  });

  it("a processor that does not answer leaves it capturing for the retry, which then captures once", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: past() });
    const down = {
      ...provider(),
      capture: async () => Promise.reject(new Error("processor unavailable")),
    };
    await expect(
      chargeDuePurchase(db(), purchase.id, { now: new Date(), provider: down }),
    ).rejects.toThrow(/retried later/);
    expect((await purchaseOf(purchase.id)).status).toBe("capturing");
    // The retry waits for its backoff (a minute after the first failure, server/payments/capture-retries.ts).
    expect(
      await chargeDuePurchase(db(), purchase.id, {
        now: new Date(Date.now() + 60_000),
        provider: provider(),
      }),
    ).toMatchObject({ outcome: "paid" });
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "captured", captures: 1 });
  });

  it("a hold the bank already released (lapsed, B4-10): refused with hold_expired, nothing charged, the person told, no retry", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: past() });
    const payment = await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } });
    await provider().release({
      idempotencyKey: `lapse-${purchase.id}`,
      paymentId: payment.processorPaymentId!,
    });
    expect(
      await chargeDuePurchase(db(), purchase.id, { now: new Date(), provider: provider() }),
    ).toMatchObject({ outcome: "refused" });
    expect(await purchaseOf(purchase.id)).toMatchObject({
      status: "refused",
      reason: "hold_expired",
      chargesAt: null,
    });
    expect((await sandboxLedger(purchase.id)).status).toBe("voided");
    // The capture found no hold: capture_failed (never voided), so the operator sees it too (review H1).
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe(
      "capture_failed",
    );
    expect(
      (
        await db().emailMessage.findUniqueOrThrow({
          where: { dedupeKey: `purchase-closed:${purchase.id}` },
        })
      ).props,
    ).toMatchObject({ outcome: "hold_expired" });
    expect(
      await chargeDuePurchase(db(), purchase.id, { now: new Date(), provider: provider() }),
    ).toMatchObject({ outcome: "not_held" });
  });

  it("is not charged before charges_at", async () => {
    const { purchase } = await createHeldPurchase();
    expect(
      await chargeDuePurchase(db(), purchase.id, { now: new Date(), provider: provider() }),
    ).toMatchObject({ outcome: "not_due" });
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", captures: 0 });
  });
});

describe("releases before the charge", () => {
  it("item sold elsewhere: cancelled with reason item_sold, the hold released, nothing charged, the person told", async () => {
    const { purchase, item } = await createHeldPurchase({ chargesAt: past() });
    await db().item.update({ where: { id: item.id }, data: { status: "sold" } });
    expect(
      await chargeDuePurchase(db(), purchase.id, { now: new Date(), provider: provider() }),
    ).toMatchObject({ outcome: "cancelled" });
    expect(await purchaseOf(purchase.id)).toMatchObject({
      status: "cancelled",
      reason: "item_sold",
      cancelledBy: "service",
      chargesAt: null,
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    const closed = await db().emailMessage.findUniqueOrThrow({
      where: { dedupeKey: `purchase-closed:${purchase.id}` },
    });
    expect(closed.props).toMatchObject({ outcome: "item_sold" });
  });

  it("notice_undelivered: a copy email not delivered by charges_at (SMTP configured) cancels and releases; nothing charged", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: past() });
    expect(
      (
        await db().emailMessage.findUniqueOrThrow({
          where: { dedupeKey: copyEmailKey(purchase.id) },
        })
      ).status,
    ).toBe("pending");
    expect(
      await chargeDuePurchase(db(), purchase.id, {
        now: new Date(),
        provider: provider(),
        sandboxMailbox: false,
      }),
    ).toMatchObject({ outcome: "cancelled" });
    expect(await purchaseOf(purchase.id)).toMatchObject({
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

  it("with SMTP, a copy email that was sent lets the charge go ahead; the sandbox mailbox counts as delivered", async () => {
    const sent = await createHeldPurchase({ chargesAt: past() });
    await db().emailMessage.update({
      where: { dedupeKey: copyEmailKey(sent.purchase.id) },
      data: { status: "sent", sentAt: new Date() },
    });
    expect(
      await chargeDuePurchase(db(), sent.purchase.id, {
        now: new Date(),
        provider: provider(),
        sandboxMailbox: false,
      }),
    ).toMatchObject({ outcome: "paid" });
    const sandbox = await createHeldPurchase({ chargesAt: past() });
    expect(
      await chargeDuePurchase(db(), sandbox.purchase.id, {
        now: new Date(),
        provider: provider(),
        sandboxMailbox: true,
      }),
    ).toMatchObject({ outcome: "paid" });
  });
});
