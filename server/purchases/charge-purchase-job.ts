/**
 * Charges an assistant purchase at its charges_at: sleeps until charges_at as read from the row
 * (so a moved due time is honoured), then runs chargeDuePurchase, the same idempotent use case the
 * sweep runs. A cancel event for the purchase stops the sleeping run; a cancelled, refused or paid
 * purchase makes it a no-op; a retried charge step captures with the same key (never twice).
 */
import { NonRetriableError } from "inngest";
import { systemClock } from "../platform/clock";
import { db } from "../platform/db";
import { paymentProvider } from "../payments";
import { chargeDuePurchase } from "./charge-purchase";
import { findChargeTime } from "./store/purchases";
import { inngest } from "../platform/jobs/client";
import { purchaseCancelledEvent, purchaseHeldEvent, ZPurchaseEvent } from "../platform/jobs/events";

export const chargePurchase = inngest.createFunction(
  {
    id: "charge-purchase",
    triggers: [{ event: purchaseHeldEvent }],
    cancelOn: [
      { event: purchaseCancelledEvent, if: "async.data.purchase_id == event.data.purchase_id" },
    ],
  },
  async ({ event, step }) => {
    const { purchase_id: id } = ZPurchaseEvent.parse(event.data);
    const due = await step.run("read-charge-time", async () => {
      const purchase = await findChargeTime(db(), id);
      if (!purchase) throw new NonRetriableError(`no purchase ${id}`);
      return { status: purchase.status, chargesAt: purchase.chargesAt?.toISOString() ?? null };
    });
    if ((due.status !== "held" && due.status !== "capturing") || !due.chargesAt)
      return { id, outcome: "not_held", status: due.status };
    await step.sleepUntil("wait-for-charge", due.chargesAt);
    return step.run("charge", () =>
      chargeDuePurchase(db(), id, { now: systemClock.now(), provider: paymentProvider() }),
    );
  },
);
