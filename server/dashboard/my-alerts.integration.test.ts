/**
 * The dashboard's price alerts (/account/alerts, through /api/trpc): the signed-in person's alerts,
 * newest first, and Stop; another person's alert is not_found and stays active; a visitor and an
 * app's token are refused (the dashboard router is for the session only).
 */
import { describe, expect, it } from "vitest";
import { createItem, createPartner, createPerson, createStore } from "../../prisma/factories";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { partnerCaller, shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";

const alertFor = async (personId: string, createdAt: Date) => {
  const { client } = await createPartner();
  const item = await createItem({ storeId: (await createStore()).id, priceCents: 5000 });
  return db().priceAlert.create({
    data: {
      id: randomId("alr_"),
      personId,
      clientId: client.id,
      itemId: item.id,
      targetPriceCents: 4000,
      createdAt,
    },
  });
};

describe("dashboard price alerts", () => {
  it("lists the person's alerts newest first and stops one; a repeated stop is harmless", async () => {
    const { person } = await createPerson();
    const older = await alertFor(person.id, new Date("2026-11-01T00:00:00Z"));
    const newer = await alertFor(person.id, new Date("2026-11-02T00:00:00Z"));
    const list = await shopper(person.id).account.listMyAlerts();
    expect(list.data.map((alert) => alert.price_alert_id)).toEqual([newer.id, older.id]);
    expect(list.data[0]).toMatchObject({
      status: "active",
      target_price: { amount: "40.00", currency: "CAD" },
      current_price: { amount: "50.00", currency: "CAD" },
      item: { priceCents: 5_000, condition: "good" },
    });
    expect(list.data[0].item.imageUrl).toMatch(/^https?:\/\/.+\/images\/items\//);
    // No saved address: the page's times are in Toronto's zone.
    expect(list.time_zone).toBe("America/Toronto");
    expect(
      await shopper(person.id).account.stopMyAlert({ price_alert_id: older.id }),
    ).toMatchObject({ price_alert_id: older.id, status: "stopped" });
    expect(
      await shopper(person.id).account.stopMyAlert({ price_alert_id: older.id }),
    ).toMatchObject({ status: "stopped" });
    expect(
      (await shopper(person.id).account.listMyAlerts()).data.map((alert) => alert.status),
    ).toEqual(["active", "stopped"]);
  });

  it("another person's alert is not_found and stays active; visitors and tokens are refused", async () => {
    const { person } = await createPerson();
    const { person: other } = await createPerson();
    const alert = await alertFor(person.id, new Date());
    expect(
      (await failure(shopper(other.id).account.stopMyAlert({ price_alert_id: alert.id }))).code,
    ).toBe("not_found");
    expect((await shopper(other.id).account.listMyAlerts()).data).toEqual([]);
    expect((await db().priceAlert.findUniqueOrThrow({ where: { id: alert.id } })).status).toBe(
      "active",
    );
    expect((await failure(visitorCaller().account.listMyAlerts())).code).toBe("unauthorized");
    expect(
      (
        await failure(
          partnerCaller(["alerts:write"], alert.clientId).account.stopMyAlert({
            price_alert_id: alert.id,
          }),
        )
      ).code,
    ).toBe("unauthorized");
  });
});
