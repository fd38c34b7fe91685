/** The charge-purchase Inngest function, run with @inngest/test against a real database and the sandbox ledger. */
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../../../prisma/factories/purchases";
import { db } from "../../../platform/db";
import { sandboxProvider } from "../../../payments/sandbox";
import { cancelPurchase } from "../../../purchases/cancel-purchase";
import { chargeDuePurchases } from "../../../purchases/charge-purchase";
import { sandboxLedger } from "../../../testing/purchase-ledger";
import { purchaseHeldEvent } from "../../../platform/jobs/events";
import { chargePurchase } from "../../../purchases/charge-purchase-job";

// The engine does not wait out sleeps: the mocked sleep step returns at once, as the server would at charges_at.
const run = (purchaseId: string) =>
  new InngestTestEngine({ function: chargePurchase }).execute({
    events: [{ name: purchaseHeldEvent, data: { purchase_id: purchaseId } }],
    steps: [{ id: "wait-for-charge", handler: () => undefined }],
  });

describe("charge-purchase function", () => {
  it("sleeps until charges_at read from the row, then charges once", async () => {
    const due = new Date(Date.now() - 1000);
    const { purchase } = await createHeldPurchase({ chargesAt: due });
    const { result, ctx } = await run(purchase.id);
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-for-charge", due.toISOString());
    expect(result).toEqual({ id: purchase.id, outcome: "paid" });
    expect(await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
      status: "paid",
      chargesAt: null,
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "captured",
      holds: 1,
      captures: 1,
      releases: 0,
    });
  });

  it("racing the sweep (and a duplicate run): one capture in the ledger, paid once, one charged email", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: new Date(Date.now() - 1000) });
    const sweep = () => chargeDuePurchases(db(), { now: new Date(), provider: sandboxProvider() });
    const outcomes = await Promise.all([run(purchase.id), sweep(), run(purchase.id), sweep()]);
    expect(outcomes.filter((outcome) => "error" in outcome && outcome.error)).toEqual([]);
    expect((await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).status).toBe(
      "paid",
    );
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

  it("a purchase cancelled before it wakes is not charged: a no-op at read time, and at charge time", async () => {
    const { purchase } = await createHeldPurchase({ chargesAt: new Date(Date.now() + 60_000) });
    await cancelPurchase(db(), sandboxProvider(), {
      id: purchase.id,
      now: new Date(),
      by: "person",
    });
    const { result, ctx } = await run(purchase.id);
    expect(result).toEqual({ id: purchase.id, outcome: "not_held", status: "cancelled" });
    expect(ctx.step.sleepUntil).not.toHaveBeenCalled();
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  });

  it("fails without retrying for an unknown purchase", async () => {
    const { error } = await run("pur_000000000000000000000000");
    expect(String((error as Error)?.message ?? error)).toContain("no purchase");
  });
});
