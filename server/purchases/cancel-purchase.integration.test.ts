/** The person's cancel (B3-13, B3-18): before cancel_until, after it, twice, after the charge, and racing the charge. */
import { describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import { sandboxLedger } from "../testing/purchase-ledger";
import { cancelPurchase } from "./cancel-purchase";
import { chargeDuePurchase } from "./charge-purchase";

const provider = () => sandboxProvider();
const cancel = (id: string, now = new Date()) =>
  cancelPurchase(db(), provider(), { id, now, by: "person" });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: { code?: string }) => error.code ?? String(error),
  );

describe("cancelling a purchase", () => {
  it("before cancel_until: cancelled, hold released once, confirmation email; a second cancel says already cancelled and calls nothing", async () => {
    const { purchase } = await createHeldPurchase();
    expect(await cancel(purchase.id)).toEqual({
      id: purchase.id,
      status: "cancelled",
      alreadyCancelled: false,
      reason: "cancelled_by_person",
    });
    expect(await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
      status: "cancelled",
      cancelledBy: "person",
      chargesAt: null,
    });
    expect(await cancel(purchase.id)).toMatchObject({
      status: "cancelled",
      alreadyCancelled: true,
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    expect(
      (
        await db().emailMessage.findUniqueOrThrow({
          where: { dedupeKey: `purchase-closed:${purchase.id}` },
        })
      ).props,
    ).toMatchObject({ outcome: "cancelled" });
  });

  it("after cancel_until: too_late_to_cancel, the hold stays for the charge", async () => {
    const { purchase } = await createHeldPurchase({
      cancelUntil: new Date(Date.now() - 1000),
      chargesAt: new Date(Date.now() + 60_000),
    });
    expect(await codeOf(cancel(purchase.id))).toBe("too_late_to_cancel");
    expect((await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).status).toBe(
      "held",
    );
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", releases: 0 });
  });

  it("after the charge: already_charged; nothing released", async () => {
    const { purchase } = await createHeldPurchase({
      chargesAt: new Date(Date.now() - 1000),
      cancelUntil: new Date(Date.now() + 60_000),
    });
    await chargeDuePurchase(db(), purchase.id, { now: new Date(), provider: provider() });
    expect(await codeOf(cancel(purchase.id))).toBe("already_charged");
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "captured",
      holds: 1,
      captures: 1,
      releases: 0,
    });
  });

  it("racing the charge at the same moment: exactly one of cancelled (nothing captured) and paid (nothing released)", async () => {
    for (let round = 0; round < 6; round++) {
      // Both still allowed: charges_at has passed, cancel_until has not (the worst case).
      const { purchase } = await createHeldPurchase({
        chargesAt: new Date(Date.now() - 1000),
        cancelUntil: new Date(Date.now() + 60_000),
      });
      const [cancelled, charged] = await Promise.all([
        codeOf(cancel(purchase.id)),
        chargeDuePurchase(db(), purchase.id, { now: new Date(), provider: provider() }),
      ]);
      const { status } = await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } });
      const ledger = await sandboxLedger(purchase.id);
      if (status === "cancelled") {
        expect(cancelled).toBe("ok");
        expect(["claimed_elsewhere", "not_held"]).toContain(charged.outcome);
        expect(ledger).toEqual({ status: "voided", holds: 1, captures: 0, releases: 1 });
      } else {
        expect(status).toBe("paid");
        expect([cancelled, charged.outcome]).toEqual(["already_charged", "paid"]);
        expect(ledger).toEqual({ status: "captured", holds: 1, captures: 1, releases: 0 });
      }
    }
  });
});
