/**
 * No Inngest server configured: the in-process sweep (started by `npm start` whatever the
 * configuration) runs every timed transition on its own. Here the one the other sweep tests do not
 * reach: a held purchase whose 24 hours are over is charged, once, however many passes run. (Checkout
 * expiry and payment settlement: sweep.integration.test.ts; reconciliation after a crash:
 * server/purchases/purchase-crash.integration.test.ts; email delivery: server/mail/smtp-outage.)
 */
import { describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../../prisma/factories/purchases";
import { fixedClock } from "../../platform/clock";
import { db } from "../../platform/db";
import { sandboxLedger } from "../../testing/purchase-ledger";
import { isInngestConfigured } from "../../platform/jobs/client";
import { dueWork } from "./due-work";
import { startSweep } from "./sweep";

describe("the sweep without an Inngest server", () => {
  it("charges a held purchase when its charge time has passed, once over several passes", async () => {
    expect(isInngestConfigured()).toBe(false);
    expect(dueWork.map((task) => task.name)).toEqual(
      expect.arrayContaining([
        "deliver-emails",
        "expire-checkouts",
        "settle-payments",
        "charge-purchases",
        "reconcile-purchases",
      ]),
    );
    const { purchase } = await createHeldPurchase({ chargesAt: new Date(Date.now() + 60_000) });
    const sweep = startSweep({
      intervalMs: 60_000,
      clock: fixedClock(new Date(Date.now() + 120_000)),
    });
    try {
      await sweep.tick();
      await sweep.tick();
    } finally {
      await sweep.stop();
    }
    expect((await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).status).toBe(
      "paid",
    );
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "captured",
      holds: 1,
      captures: 1,
      releases: 0,
    });
  }, 60_000);
});
