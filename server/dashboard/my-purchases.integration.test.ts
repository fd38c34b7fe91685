/** The dashboard's assistant purchases (/account/purchases): the person's own list, and the cancel through cancelPurchase. */
import { describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { createHeldPurchase, createPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { sandboxLedger } from "../testing/purchase-ledger";
import { partnerCaller, shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";
import { myPurchasesPageSize } from "./my-purchases.schema";

describe("the dashboard's purchases", () => {
  it("lists only the person's own purchases, newest first, with status, stores, total, assistant and times", async () => {
    const { person } = await createPerson();
    const older = await createHeldPurchase({ person, now: new Date(Date.now() - 60_000) });
    await db().purchase.update({
      where: { id: older.purchase.id },
      data: { createdAt: new Date(Date.now() - 60_000) },
    });
    const newer = await createHeldPurchase({ person, grandTotalCents: 12_345 });
    const someoneElse = await createHeldPurchase();

    const list = await shopper(person.id).account.listMyPurchases();
    expect(list.purchases.map((purchase) => purchase.purchase_id)).toEqual([
      newer.purchase.id,
      older.purchase.id,
    ]);
    expect(list.has_more).toBe(false);
    expect(list.purchases[0]).toMatchObject({
      status: "held",
      grand_total: { amount: "123.45", currency: "CAD" },
      assistant: newer.agent.name,
      stores: [(newer.quote.snapshot as { stores: { name: string }[] }).stores[0].name],
      charges_at: newer.purchase.chargesAt!.toISOString(),
      cancel_until: newer.purchase.cancelUntil.toISOString(),
      can_cancel: true,
      items: [
        {
          title: newer.item.title,
          size: "M",
          condition: null,
          quantity: 1,
          image_url: null,
          store: (newer.quote.snapshot as { stores: { name: string }[] }).stores[0].name,
        },
      ],
    });
    // No saved address: Toronto's zone.
    expect(list.time_zone).toBe("America/Toronto");
    expect(
      (await shopper(someoneElse.person.id).account.listMyPurchases()).purchases.map(
        (purchase) => purchase.purchase_id,
      ),
    ).toEqual([someoneElse.purchase.id]);
  });

  it("times in the zone of the person's saved province", async () => {
    const { purchase, person } = await createHeldPurchase();
    await db().shippingAddress.create({
      data: {
        personId: person.id,
        name: "Ana Tremblay",
        line1: "10 Jasper Ave",
        city: "Edmonton",
        province: "AB",
        postalCode: "T5J 1A1",
      },
    });
    const list = await shopper(person.id).account.listMyPurchases();
    expect(list.time_zone).toBe("America/Edmonton");
    expect(list.purchases[0].purchase_id).toBe(purchase.id);
  });

  it("shows capturing as held, with no cancel once the deadline passed", async () => {
    const { purchase, person } = await createHeldPurchase({
      chargesAt: new Date(Date.now() - 1000),
    });
    await db().purchase.update({ where: { id: purchase.id }, data: { status: "capturing" } });
    expect((await shopper(person.id).account.listMyPurchases()).purchases[0]).toMatchObject({
      status: "held",
      can_cancel: false,
    });
  });

  it("pages a modest number at a time", async () => {
    const { person } = await createPerson();
    const ids: string[] = [];
    for (let index = 0; index <= myPurchasesPageSize; index++) {
      const made = await createPurchase({ person });
      await db().purchase.update({
        where: { id: made.purchase.id },
        data: { createdAt: new Date(Date.now() - (100 - index) * 1000) },
      });
      ids.unshift(made.purchase.id);
    }
    const first = await shopper(person.id).account.listMyPurchases({ page: 1 });
    expect(first.purchases.map((purchase) => purchase.purchase_id)).toEqual(
      ids.slice(0, myPurchasesPageSize),
    );
    expect(first.has_more).toBe(true);
    const second = await shopper(person.id).account.listMyPurchases({ page: 2 });
    expect(second.purchases.map((purchase) => purchase.purchase_id)).toEqual(
      ids.slice(myPurchasesPageSize),
    );
    expect(second.has_more).toBe(false);
  });

  it("cancels the person's own held purchase: the hold is released once; a second cancel says already cancelled", async () => {
    const { purchase, person } = await createHeldPurchase();
    expect(await shopper(person.id).account.cancelMyPurchase({ purchase_id: purchase.id })).toEqual(
      { purchase_id: purchase.id, status: "cancelled", already_cancelled: false },
    );
    expect(
      await shopper(person.id).account.cancelMyPurchase({ purchase_id: purchase.id }),
    ).toMatchObject({ already_cancelled: true });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    expect((await shopper(person.id).account.listMyPurchases()).purchases[0]).toMatchObject({
      status: "cancelled",
      charges_at: null,
      can_cancel: false,
    });
  });

  it("another person's purchase is not_found and stays held", async () => {
    const { purchase } = await createHeldPurchase();
    const { person: other } = await createPerson();
    expect(
      (await failure(shopper(other.id).account.cancelMyPurchase({ purchase_id: purchase.id })))
        .code,
    ).toBe("not_found");
    expect(
      (
        await failure(
          shopper(other.id).account.cancelMyPurchase({ purchase_id: "pur_nonexistent" }),
        )
      ).code,
    ).toBe("not_found");
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", releases: 0 });
  });

  it("after cancel_until: too_late_to_cancel, the hold stays", async () => {
    const { purchase, person } = await createHeldPurchase({
      cancelUntil: new Date(Date.now() - 1000),
      chargesAt: new Date(Date.now() + 60_000),
    });
    expect(
      (await failure(shopper(person.id).account.cancelMyPurchase({ purchase_id: purchase.id })))
        .code,
    ).toBe("too_late_to_cancel");
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", releases: 0 });
  });

  it("needs a session: a visitor and a token (even the assistant's) are refused", async () => {
    const { purchase } = await createHeldPurchase();
    expect((await failure(visitorCaller().account.listMyPurchases())).code).toBe("unauthorized");
    expect(
      (
        await failure(
          partnerCaller(["purchase:write"], purchase.clientId).account.cancelMyPurchase({
            purchase_id: purchase.id,
          }),
        )
      ).code,
    ).toBe("unauthorized");
  });
});
