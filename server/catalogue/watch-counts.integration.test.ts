/**
 * price_watchers and you_are_watching on GET /products and GET /products/{id}, through the
 * operation table's REST handlers, answered by pg-search and by the in-memory index: live watches (active, executing)
 * and live alerts of OTHER people count, once per person, over every variant; ended ones do not; the
 * viewer's own are excluded and flag you_are_watching; a client-credentials token sees every watcher
 * and never you_are_watching. The one-second page cache never hands one person's flag to another.
 * Watches are inserted as rows (their API is another part of issue 10).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { operationHandler } from "@/server/edges/rest/rest-router";
import { createItem, createLinkedPerson, createPartner, createStore } from "../../prisma/factories";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { useIndexHost } from "./search";
import type { CatalogSync } from "./search/memory/catalog-sync";
import { startMemorySearch } from "../testing/memory-index";
import { callRoute } from "../testing/rest";
import { expectSearchContract } from "../testing/catalog-oracle";
import { inThisThread } from "./search/memory/index-host";

const searchRoute = operationHandler("GET /api/v1/products");
const productRoute = operationHandler("GET /api/v1/products/{id}");

type Summary = { id: number; price_watchers: number; you_are_watching: boolean };

const watch = (
  personId: string,
  clientId: string,
  itemId: number,
  status: "active" | "executing" | "fulfilled" | "cancelled" = "active",
) =>
  db().priceWatch.create({
    data: {
      personId,
      clientId,
      itemId,
      maxPriceCents: 1000,
      maxTotalCents: 2000,
      status,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });

const alert = (
  personId: string,
  clientId: string,
  itemId: number,
  status: "active" | "notified" | "stopped" = "active",
) =>
  db().priceAlert.create({
    data: { id: randomId("alr_"), personId, clientId, itemId, targetPriceCents: 1000, status },
  });

const search = async (token: string, slug: string, headers: Record<string, string> = {}) => {
  const response = await callRoute(searchRoute, {
    path: `/products?store=${slug}&sort=price_asc`,
    token,
    headers,
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: Summary[] };
  expectSearchContract(body);
  return new Map(
    body.data.map((item) => [
      item.id,
      { watchers: item.price_watchers, mine: item.you_are_watching },
    ]),
  );
};

const detail = async (token: string, id: number) => {
  const response = await callRoute(productRoute, {
    path: `/products/${id}`,
    token,
    params: { id: String(id) },
  });
  const body = (await response.json()) as Summary;
  return { watchers: body.price_watchers, mine: body.you_are_watching };
};

/** A store with three items: one with two variants watched by everyone, one watched only by ended things, one unwatched. */
const scene = async () => {
  const store = await createStore();
  const [watched, ended, quiet] = [
    await createItem({ storeId: store.id, priceCents: 3000, sizes: ["S", "M"] }),
    await createItem({ storeId: store.id, priceCents: 4000 }),
    await createItem({ storeId: store.id, priceCents: 5000 }),
  ];
  const ana = await createLinkedPerson({ scopes: ["catalog:read"] });
  const ben = await createLinkedPerson({ scopes: ["catalog:read"] });
  const cy = await createLinkedPerson({ scopes: ["catalog:read"] });
  const partner = await createPartner({ scopes: ["catalog:read"] });
  // Ana: a watch and an alert on the same item (one watcher). Ben: an executing watch. Cy: an alert.
  await watch(ana.person.id, ana.partner.client.id, watched.id);
  await alert(ana.person.id, ana.partner.client.id, watched.id);
  await watch(ben.person.id, ben.partner.client.id, watched.id, "executing");
  await alert(cy.person.id, cy.partner.client.id, watched.id);
  // Ended watches and alerts count for nobody.
  await watch(ben.person.id, ben.partner.client.id, ended.id, "fulfilled");
  await watch(cy.person.id, cy.partner.client.id, ended.id, "cancelled");
  await alert(ana.person.id, ana.partner.client.id, ended.id, "notified");
  await alert(ben.person.id, ben.partner.client.id, ended.id, "stopped");
  return { store, watched, ended, quiet, ana, ben, cy, partnerToken: await partner.token() };
};

const expectCounts = async (world: Awaited<ReturnType<typeof scene>>) => {
  const { store, watched, ended, quiet } = world;
  const asAna = await search(world.ana.token, store.slug);
  expect(asAna.get(watched.id)).toEqual({ watchers: 2, mine: true });
  expect(asAna.get(ended.id)).toEqual({ watchers: 0, mine: false });
  expect(asAna.get(quiet.id)).toEqual({ watchers: 0, mine: false });
  expect((await search(world.ben.token, store.slug)).get(watched.id)).toEqual({
    watchers: 2,
    mine: true,
  });
  expect((await search(world.cy.token, store.slug)).get(watched.id)).toEqual({
    watchers: 2,
    mine: true,
  });
  const asPartner = await search(world.partnerToken, store.slug);
  expect(asPartner.get(watched.id)).toEqual({ watchers: 3, mine: false });
  expect(asPartner.get(ended.id)).toEqual({ watchers: 0, mine: false });
  expect(await detail(world.ana.token, watched.id)).toEqual({ watchers: 2, mine: true });
  expect(await detail(world.partnerToken, watched.id)).toEqual({ watchers: 3, mine: false });
  expect(await detail(world.cy.token, ended.id)).toEqual({ watchers: 0, mine: false });
};

describe("watcher counts from pg-search", () => {
  it("count other people's live watches and alerts once each, over every variant; exclude and flag the viewer's own", async () => {
    await expectCounts(await scene());
  });
});

describe("watcher counts from the in-memory index", () => {
  let sync: CatalogSync;
  beforeAll(async () => {
    ({ sync } = await startMemorySearch());
    useIndexHost(inThisThread(sync));
  });
  afterAll(async () => {
    useIndexHost(undefined);
    await sync?.stop();
  });

  const settle = async (check: () => Promise<void>) =>
    vi.waitFor(
      async () => {
        await sync.settled();
        await check();
      },
      { timeout: 5000, interval: 50 },
    );

  it("agree with pg-search and follow new, ended and deleted watches and alerts", async () => {
    const world = await scene();
    await settle(() => expectCounts(world));
    // Ana's alert ends (notified): she still has her watch, so nothing changes for anyone.
    await db().priceAlert.updateMany({
      where: { personId: world.ana.person.id, itemId: world.watched.id },
      data: { status: "notified" },
    });
    await settle(async () =>
      expect(
        (await search(world.partnerToken, world.store.slug, { "cache-control": "no-cache" })).get(
          world.watched.id,
        ),
      ).toEqual({ watchers: 3, mine: false }),
    );
    // Ana's watch is cancelled: she is no longer a watcher.
    await db().priceWatch.updateMany({
      where: { personId: world.ana.person.id, itemId: world.watched.id },
      data: { status: "cancelled" },
    });
    await settle(async () => {
      expect(
        (await search(world.partnerToken, world.store.slug, { "cache-control": "no-cache" })).get(
          world.watched.id,
        ),
      ).toEqual({ watchers: 2, mine: false });
      expect(
        (await search(world.ana.token, world.store.slug, { "cache-control": "no-cache" })).get(
          world.watched.id,
        ),
      ).toEqual({ watchers: 2, mine: false });
    });
    // Cy's account is closed: the alert row is deleted with the person.
    await db().person.delete({ where: { id: world.cy.person.id } });
    await settle(async () =>
      expect(
        (await search(world.partnerToken, world.store.slug, { "cache-control": "no-cache" })).get(
          world.watched.id,
        ),
      ).toEqual({ watchers: 1, mine: false }),
    );
  });

  it("the one-second page cache never shows one person's you_are_watching to another", async () => {
    const world = await scene();
    await settle(() => expectCounts(world));
    // Same query, same second: a page is kept on its query's second ask, and whoever is served from it
    // gets their own flags.
    const version = sync.index!.version;
    const first = await search(world.ana.token, world.store.slug);
    const fromCache = await Promise.all([
      search(world.ben.token, world.store.slug),
      search(world.partnerToken, world.store.slug),
      search(world.ana.token, world.store.slug),
    ]);
    expect(sync.index!.version).toBe(version);
    expect(first.get(world.watched.id)).toEqual({ watchers: 2, mine: true });
    expect(fromCache[0].get(world.watched.id)).toEqual({ watchers: 2, mine: true });
    expect(fromCache[1].get(world.watched.id)).toEqual({ watchers: 3, mine: false });
    expect(fromCache[2].get(world.watched.id)).toEqual({ watchers: 2, mine: true });
    // A person with nothing on the item, right after, from the same cached page.
    const dee = await createLinkedPerson({ scopes: ["catalog:read"] });
    expect((await search(dee.token, world.store.slug)).get(world.watched.id)).toEqual({
      watchers: 3,
      mine: false,
    });
  });
});
