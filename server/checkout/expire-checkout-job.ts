/**
 * Expires a checkout at its due time: sleeps until expires_at as read from the row (never "30
 * minutes from now", so a moved due time is honoured), then runs the same guarded transition the
 * sweep runs. A paid or cancelled checkout makes it a no-op; a closed event cancels the run early.
 */
import { NonRetriableError } from "inngest";
import { systemClock } from "../platform/clock";
import { db } from "../platform/db";
import { closeCheckout } from "./checkout-transitions";
import { findCheckoutDue } from "./store/checkouts";
import { inngest } from "../platform/jobs/client";
import { checkoutClosedEvent, checkoutCreatedEvent, ZCheckoutEvent } from "../platform/jobs/events";

export const expireCheckout = inngest.createFunction(
  {
    id: "expire-checkout",
    triggers: [{ event: checkoutCreatedEvent }],
    cancelOn: [
      { event: checkoutClosedEvent, if: "async.data.checkout_id == event.data.checkout_id" },
    ],
  },
  async ({ event, step }) => {
    const { checkout_id: id } = ZCheckoutEvent.parse(event.data);
    const due = await step.run("read-due-time", async () => {
      const checkout = await findCheckoutDue(db(), id);
      if (!checkout) throw new NonRetriableError(`no checkout ${id}`);
      return { status: checkout.status, expiresAt: checkout.expiresAt.toISOString() };
    });
    if (due.status !== "awaiting_payment") return { id, expired: false, status: due.status };
    await step.sleepUntil("wait-for-expiry", due.expiresAt);
    const expired = await step.run("expire", () =>
      closeCheckout(db(), { id, to: "expired", now: systemClock.now() }),
    );
    return { id, expired };
  },
);
