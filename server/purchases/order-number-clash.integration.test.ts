/**
 * Review L8: order numbers are 40 random bits and the unique indexes (purchases, checkouts' orders)
 * catch the rare clash. A clash while recording a hold must not fail the purchase with a 500 (the
 * hold taken, the purchase left processing): the record is written again with a new number.
 */
import { describe, expect, it } from "vitest";
import { createPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { sandboxLedger } from "../testing/purchase-ledger";

describe("an order number that is already taken (L8)", () => {
  it("by another purchase: the hold is recorded under a new number, one copy email, one order", async () => {
    const first = await createPurchase();
    expect(first.purchase.status).toBe("held");
    const taken = first.purchase.orderNumber!;
    const tried: string[] = [];
    const numbers = [taken, taken, "SO-L8FRESH1"];
    const second = await createPurchase({
      orderNumbers: () => {
        const next = numbers.shift()!;
        tried.push(next);
        return next;
      },
    });
    expect(tried).toEqual([taken, taken, "SO-L8FRESH1"]);
    expect(second.purchase).toMatchObject({ status: "held", orderNumber: "SO-L8FRESH1" });
    expect(
      await db().order.findMany({
        where: { purchaseId: second.purchase.id },
        select: { number: true },
      }),
    ).toEqual([{ number: "SO-L8FRESH1-1" }]);
    expect(
      await db().emailMessage.count({
        where: { dedupeKey: `purchase-copy:${second.purchase.id}` },
      }),
    ).toBe(1);
    expect(await sandboxLedger(second.purchase.id)).toMatchObject({
      status: "authorized",
      holds: 1,
    });
    expect(
      (await db().payment.findUniqueOrThrow({ where: { purchaseId: second.purchase.id } })).status,
    ).toBe("authorized");
  });
});
