/**
 * Price alerts through the operation table's REST handlers with real linked tokens (consent with
 * alerts:write ticked): the 201 shape, every refusal with its status, 403 for a token without
 * alerts:write (a person linked before 1.6.0, a client-credentials token), another person's alert
 * is 404, and the alert firing: exactly one email (delivered over real SMTP) under two concurrent
 * price events handled by two processors, never a purchase, and the alert ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationHandler } from "@/server/edges/rest/rest-router";
import {
  createItem,
  createLinkingPartner,
  createPartner,
  createPerson,
  createStore,
} from "../../prisma/factories";
import { renderEmail } from "../../emails/render";
import { db } from "../platform/db";
import { env } from "../platform/env";
import { deliverDueEmails, smtpTransport } from "../platform/mail/sender";
import { priceAlertHandler } from "./alert-on-price-change";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { setItemPrice } from "../catalogue/set-item-price";
import { newlyRequestedScopes } from "../oauth/consent";
import { obtainCode, token as tokenEndpoint } from "../testing/oauth";
import { callRoute } from "../testing/rest";
import { startSmtpCapture } from "../testing/smtp-capture";

const postAlert = operationHandler("POST /api/v1/price-alerts");
const listAlerts = operationHandler("GET /api/v1/price-alerts");
const deleteAlert = operationHandler("DELETE /api/v1/price-alerts/{price_alert_id}");

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(async () => {
  await smtp?.stop();
});

/** A person linked to a partner through the consent page, with `tick` ticked (alerts:write by default). */
const linked = async (
  options: {
    tick?: string[];
    scope?: string;
    again?: {
      person: { id: string; email: string };
      client: { id: string; redirectUris: string[] };
      secret: string;
    };
  } = {},
) => {
  const person = options.again?.person ?? (await createPerson()).person;
  const { client, secret } = options.again ?? (await createLinkingPartner());
  const redirectUri = client.redirectUris[0];
  const { code, verifier } = await obtainCode({
    personId: person.id,
    clientId: client.id,
    redirectUri,
    scope: options.scope ?? "catalog:read alerts:write",
    tick: options.tick ?? ["alerts:write"],
  });
  const tokens = await (
    await tokenEndpoint({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: client.id,
      client_secret: secret,
    })
  ).json();
  if (!tokens.access_token) throw new Error(JSON.stringify(tokens));
  return {
    person,
    client,
    secret,
    token: tokens.access_token as string,
    scope: tokens.scope as string,
  };
};

const itemAt = async (priceCents: number, store: Record<string, unknown> = {}) =>
  createItem({ storeId: (await createStore(store)).id, priceCents });

const post = async (token: string, body: unknown) => {
  const response = await callRoute(postAlert, { path: "/price-alerts", token, body });
  return { status: response.status, body: await response.json() };
};

const stop = async (token: string, id: string) => {
  const response = await callRoute(deleteAlert, {
    method: "DELETE",
    path: `/price-alerts/${id}`,
    token,
    params: { price_alert_id: id },
  });
  return { status: response.status, body: await response.json() };
};

const list = async (token: string, query = "") => {
  const response = await callRoute(listAlerts, { path: `/price-alerts${query}`, token });
  return { status: response.status, body: await response.json() };
};

/** The person reads French, and their saved address is in Alberta (Edmonton's zone). */
const readsFrenchInEdmonton = async (personId: string) => {
  await db().$executeRaw`UPDATE persons SET language = 'fr' WHERE id = ${personId}`;
  await db().shippingAddress.create({
    data: {
      personId,
      name: "Léa Gagnon",
      line1: "10 Jasper Ave",
      city: "Edmonton",
      province: "AB",
      postalCode: "T5J 1N5",
      country: "CA",
    },
  });
};

describe("POST /price-alerts", () => {
  it("201 with price_alert_id (alr_, unguessable), status active, the item and the target; listed newest first", async () => {
    const { token } = await linked();
    const first = await itemAt(5000);
    const second = await itemAt(8000);
    const created = await post(token, { catalog_item_id: String(first.id), target_price: 12.34 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "active",
      catalog_item_id: String(first.id),
      title: first.title,
      target_price: { amount: "12.34", currency: "CAD" },
      current_price: { amount: "50.00", currency: "CAD" },
      notified_at: null,
      stopped_at: null,
      notified_price: null,
    });
    expect(created.body.price_alert_id).toMatch(/^alr_[0-9a-f]{24}$/);
    const again = await post(token, { catalog_item_id: second.id, target_price: "70" });
    expect(again.status).toBe(201);
    const listed = await list(token, "?per_page=1");
    expect(listed.status).toBe(200);
    expect(
      listed.body.data.map((alert: { price_alert_id: string }) => alert.price_alert_id),
    ).toEqual([again.body.price_alert_id]);
    expect(listed.body.pagination).toEqual({ page: 1, per_page: 1, total: 2, last_page: 2 });
  });

  it("422 names the field and why; 404 for an item not for sale; nothing written", async () => {
    const { token, person } = await linked();
    const item = await itemAt(5000);
    const invalid = await post(token, {
      catalog_item_id: "abc",
      target_price: 12.345,
      status: "notified",
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.fields).toHaveProperty("catalog_item_id");
    expect(invalid.body.error.fields).toHaveProperty("target_price");
    const missing = await post(token, { catalog_item_id: String(item.id) });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toHaveProperty("target_price");
    const unknown = await post(token, { catalog_item_id: "2000000000", target_price: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    expect(await db().priceAlert.count({ where: { personId: person.id } })).toBe(0);
  });

  it("409 store_alerts_unavailable for a store that does not offer alerts; stores offer them by default", async () => {
    const { token, person } = await linked();
    const offering = await createStore();
    expect(offering.offersPriceAlerts).toBe(true);
    const item = await itemAt(5000, { offersPriceAlerts: false });
    const refused = await post(token, { catalog_item_id: String(item.id), target_price: 40 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("store_alerts_unavailable");
    expect(await db().priceAlert.count({ where: { personId: person.id } })).toBe(0);
  });

  it("409 already_at_price, already_alerting (one live alert per item) and item_unavailable (sold)", async () => {
    const { token } = await linked();
    const item = await itemAt(5000);
    const atPrice = await post(token, { catalog_item_id: String(item.id), target_price: 50 });
    expect(atPrice.status).toBe(409);
    expect(atPrice.body.error).toMatchObject({
      code: "already_at_price",
      current_price: { amount: "50.00", currency: "CAD" },
    });
    const first = await post(token, { catalog_item_id: String(item.id), target_price: 40 });
    expect(first.status).toBe(201);
    const second = await post(token, { catalog_item_id: String(item.id), target_price: 30 });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({
      code: "already_alerting",
      price_alert_id: first.body.price_alert_id,
    });
    const sold = await itemAt(5000);
    await db().item.update({ where: { id: sold.id }, data: { status: "sold" } });
    const onSold = await post(token, { catalog_item_id: String(sold.id), target_price: 40 });
    expect(onSold.status).toBe(409);
    expect(onSold.body.error.code).toBe("item_unavailable");
  });

  it("403 insufficient_scope without alerts:write: a person linked before 1.6.0 (not ticked) and a client-credentials token", async () => {
    const before = await linked({ tick: [] });
    expect(before.scope.split(" ")).not.toContain("alerts:write");
    const item = await itemAt(5000);
    for (const call of [
      () => post(before.token, { catalog_item_id: String(item.id), target_price: 40 }),
      () => list(before.token),
      () => stop(before.token, "alr_x"),
    ]) {
      const answer = await call();
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe("insufficient_scope");
    }
    const partner = await createPartner({ scopes: ["catalog:read", "checkout:write"] });
    const refused = await post(await partner.token(), {
      catalog_item_id: String(item.id),
      target_price: 40,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
  });
});

describe("persons linked before 1.6.0", () => {
  it("reconnect to grant alerts:write: the consent page marks it New, and the new token sets alerts", async () => {
    const before = await linked({ scope: "catalog:read", tick: [] });
    // Connecting for the first time, nothing is marked new; asking again for alerts:write marks only it.
    const { client: fresh } = await createLinkingPartner();
    expect(
      await newlyRequestedScopes(before.person.id, fresh.id, ["catalog:read", "alerts:write"]),
    ).toEqual([]);
    expect(
      await newlyRequestedScopes(before.person.id, before.client.id, [
        "catalog:read",
        "alerts:write",
      ]),
    ).toEqual(["alerts:write"]);
    const item = await itemAt(5000);
    expect(
      (await post(before.token, { catalog_item_id: String(item.id), target_price: 40 })).status,
    ).toBe(403);
    const after = await linked({ again: before, tick: ["alerts:write"] });
    expect(after.scope.split(" ")).toContain("alerts:write");
    expect(
      (await post(after.token, { catalog_item_id: String(item.id), target_price: 40 })).status,
    ).toBe(201);
    expect(
      await newlyRequestedScopes(before.person.id, before.client.id, [
        "catalog:read",
        "alerts:write",
      ]),
    ).toEqual([]);
  });
});

describe("DELETE /price-alerts/{id}", () => {
  it("stops the person's own alert (repeat is harmless); another person's alert is 404 and stays active", async () => {
    const owner = await linked();
    const other = await linked();
    const item = await itemAt(5000);
    const created = await post(owner.token, { catalog_item_id: String(item.id), target_price: 40 });
    const id = created.body.price_alert_id as string;
    const foreign = await stop(other.token, id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    expect((await db().priceAlert.findUniqueOrThrow({ where: { id } })).status).toBe("active");
    expect((await list(other.token)).body.data).toEqual([]);
    const stopped = await stop(owner.token, id);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ price_alert_id: id, status: "stopped" });
    expect(stopped.body.stopped_at).not.toBeNull();
    expect((await stop(owner.token, id)).body.status).toBe("stopped");
    // A stopped alert never fires.
    await setItemPrice(db(), { itemId: item.id, priceCents: 1000 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    expect(await db().emailMessage.count({ where: { dedupeKey: `price-alert:${id}` } })).toBe(0);
  });
});

describe("an alert fires", () => {
  it("exactly one email under two concurrent price events handled by two processors; never buys; the alert ends", async () => {
    const { token, person } = await linked();
    const item = await itemAt(5000);
    const created = await post(token, { catalog_item_id: String(item.id), target_price: 40 });
    const id = created.body.price_alert_id as string;
    // A drop that does not reach the target: nothing happens.
    await setItemPrice(db(), { itemId: item.id, priceCents: 4500 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    expect((await db().priceAlert.findUniqueOrThrow({ where: { id } })).status).toBe("active");
    // Two changes at once, both under the target, then two processors at the same time.
    await Promise.all([
      setItemPrice(db(), { itemId: item.id, priceCents: 3900 }, { now: new Date() }),
      setItemPrice(db(), { itemId: item.id, priceCents: 3800 }, { now: new Date() }),
    ]);
    const pending = await db().priceChangeEvent.count({
      where: { itemId: item.id, processedAt: null },
    });
    expect(pending).toBe(2);
    const results = await Promise.all([
      processPriceChanges(db(), { now: () => new Date(), batch: 1 }),
      processPriceChanges(db(), { now: () => new Date(), batch: 1 }),
    ]);
    expect(results.reduce((sum, result) => sum + result.failed, 0)).toBe(0);
    const alert = await db().priceAlert.findUniqueOrThrow({ where: { id } });
    expect(alert.status).toBe("notified");
    expect([3800, 3900]).toContain(alert.notifiedPriceCents);
    const emails = await db().emailMessage.findMany({ where: { to: person.email } });
    expect(emails.map((email) => [email.template, email.dedupeKey])).toEqual([
      ["price-alert", `price-alert:${id}`],
    ]);
    // Never a purchase, a checkout or a payment for the person.
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(0);
    expect(await db().checkout.count({ where: { email: person.email } })).toBe(0);
    // A later drop sends nothing more: the alert has ended.
    await setItemPrice(db(), { itemId: item.id, priceCents: 2000 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    expect(await db().emailMessage.count({ where: { to: person.email } })).toBe(1);
    // The email goes out over SMTP once, with the item's link.
    await deliverDueEmails({ db: db(), now: new Date(), transport: smtpTransport(smtp.url) });
    const delivered = await smtp.waitFor(person.email);
    expect(delivered.subject).toContain(item.title);
    expect(delivered.text).toContain(item.url);
    expect(delivered.text).toMatch(/\$3[89]\.00/);
    expect(smtp.messages.filter((message) => message.to.includes(person.email))).toHaveLength(1);
    const listed = await list(token);
    expect(listed.body.data[0]).toMatchObject({ price_alert_id: id, status: "notified" });
  });

  it("the email's props carry the item (picture as an absolute URL, condition, store), the price and the target, in the person's language and zone", async () => {
    const { token, person } = await linked();
    await readsFrenchInEdmonton(person.id);
    const item = await itemAt(5000);
    const store = await db().store.findUniqueOrThrow({ where: { id: item.storeId } });
    const cover = await db().itemImage.findFirstOrThrow({ where: { itemId: item.id } });
    const created = await post(token, { catalog_item_id: String(item.id), target_price: 40 });
    await setItemPrice(db(), { itemId: item.id, priceCents: 3_950 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    const email = await db().emailMessage.findUniqueOrThrow({
      where: { dedupeKey: `price-alert:${created.body.price_alert_id}` },
    });
    expect(email.props).toEqual({
      locale: "fr-CA",
      timeZone: "America/Edmonton",
      item: {
        title: item.title,
        size: null,
        condition: "good",
        imageUrl: `${env().PUBLIC_URL}${cover.url}`,
        storeName: store.name,
        url: item.url,
        priceCents: 3_950,
        // The item's chart with the alert's target (ADR 0119): signed, in the person's language.
        chart: {
          url: expect.stringMatching(
            `^${env().PUBLIC_URL}/charts/price-history/${item.id}\\.png\\?target=4000&lang=fr-CA&token=`,
          ),
          alt: `Historique du prix de ${item.title} sur les 90 derniers jours, avec une ligne à votre prix de 40,00\u00a0$`,
        },
      },
      targetCents: 4_000,
      alertsUrl: `${env().PUBLIC_URL}/account/alerts`,
    });
    const rendered = await renderEmail("price-alert", email.props);
    expect(rendered.subject).toBe(
      `Baisse de prix\u00a0: ${item.title} est maintenant à 39,50\u00a0$`,
    );
    expect(rendered.text).toContain(store.name);
  });

  it("alerts of one item that fire together: each email in its own person's language and zone", async () => {
    const french = await linked();
    const english = await linked();
    await readsFrenchInEdmonton(french.person.id);
    const item = await itemAt(5000);
    const alerts = [];
    for (const { token } of [french, english])
      alerts.push(await post(token, { catalog_item_id: String(item.id), target_price: 40 }));
    await setItemPrice(db(), { itemId: item.id, priceCents: 3_950 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    const propsOf = async (created: { body: { price_alert_id: string } }) =>
      (
        await db().emailMessage.findUniqueOrThrow({
          where: { dedupeKey: `price-alert:${created.body.price_alert_id}` },
        })
      ).props as { locale: string; timeZone: string };
    expect(await propsOf(alerts[0])).toMatchObject({
      locale: "fr-CA",
      timeZone: "America/Edmonton",
    });
    // No saved language or address: English, and Toronto's zone.
    expect(await propsOf(alerts[1])).toMatchObject({
      locale: "en-CA",
      timeZone: "America/Toronto",
    });
  });

  it("the handler itself, run for two events of the item at the same moment many times over, notifies each alert once", async () => {
    const item = await itemAt(5000);
    const people = await Promise.all(Array.from({ length: 6 }, () => linked()));
    const ids: string[] = [];
    for (const [index, { token }] of people.entries())
      ids.push(
        (await post(token, { catalog_item_id: String(item.id), target_price: 40 + index }).then(
          (answer) => answer.body.price_alert_id,
        )) as string,
      );
    const first = await setItemPrice(
      db(),
      { itemId: item.id, priceCents: 3900 },
      { now: new Date() },
    );
    const second = await setItemPrice(
      db(),
      { itemId: item.id, priceCents: 3800 },
      { now: new Date() },
    );
    const events = await db().priceChangeEvent.findMany({
      where: { id: { in: [first.eventId!, second.eventId!] } },
    });
    await Promise.all(
      Array.from({ length: 4 }, () =>
        events.map((event) => priceAlertHandler.handle(db(), event, { now: new Date() })),
      ).flat(),
    );
    const emails = await db().emailMessage.findMany({
      where: { dedupeKey: { in: ids.map((id) => `price-alert:${id}`) } },
    });
    expect(emails.map((email) => email.dedupeKey).sort()).toEqual(
      ids.map((id) => `price-alert:${id}`).sort(),
    );
    expect(await db().priceAlert.count({ where: { id: { in: ids }, status: "notified" } })).toBe(6);
  });
});

describe("drop_percent on POST /price-alerts (1.9.0)", () => {
  it("sets the target that much below the price now, rounded down to the cent; shows both", async () => {
    const { token } = await linked();
    const item = await itemAt(999);
    const { status, body } = await post(token, {
      catalog_item_id: String(item.id),
      drop_percent: 33,
    });
    expect(status).toBe(201);
    // 9.99 less 33% = 6.6933: 6.69, never above what the percentage says.
    expect(body).toMatchObject({
      target_price: { amount: "6.69" },
      drop_percent: 33,
      current_price: { amount: "9.99" },
    });
    const row = await db().priceAlert.findUniqueOrThrow({ where: { id: body.price_alert_id } });
    expect(row).toMatchObject({ targetPriceCents: 669, dropPercent: 33 });
    const priced = await post(token, {
      catalog_item_id: String((await itemAt(5000)).id),
      target_price: "40",
    });
    expect(priced.body.drop_percent).toBeNull();
    // It fires like any alert once the price reaches the stored target.
    await setItemPrice(db(), { itemId: item.id, priceCents: 669 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    expect(
      (await db().priceAlert.findUniqueOrThrow({ where: { id: body.price_alert_id } })).status,
    ).toBe("notified");
  });

  it("422 naming the field: both, neither, out of range, not whole", async () => {
    const { token } = await linked();
    const item = await itemAt(5000);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ target_price: "40", drop_percent: 10 }, ["drop_percent"]],
      [{}, ["target_price", "drop_percent"]],
      [{ drop_percent: 0 }, ["drop_percent"]],
      [{ drop_percent: 91 }, ["drop_percent"]],
      [{ drop_percent: 2.5 }, ["drop_percent"]],
    ];
    for (const [fields, named] of cases) {
      const answer = await post(token, { catalog_item_id: String(item.id), ...fields });
      expect(answer.status, JSON.stringify(fields)).toBe(422);
      expect(Object.keys(answer.body.error.fields).sort(), JSON.stringify(fields)).toEqual(
        [...named].sort(),
      );
    }
    expect(await db().priceAlert.count({ where: { itemId: item.id } })).toBe(0);
    // 90 is the most: 50.00 less 90% = 5.00.
    expect(
      (await post(token, { catalog_item_id: String(item.id), drop_percent: 90 })).body.target_price,
    ).toEqual({ amount: "5.00", currency: "CAD" });
  });
});
