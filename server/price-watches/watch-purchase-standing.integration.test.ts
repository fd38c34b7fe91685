/**
 * Review M3 (issue 24): a watch's purchase checks, under the person's lock, that the person still
 * lets its assistant buy (a live grant with purchase:write, the client not revoked) and that the
 * watch is still claimed and not expired; ending the person's standing ends an executing watch whose
 * purchase does not exist yet. Each test claims a watch as the evaluator does (a fresh quote recorded
 * with the claim), then changes something before the purchase runs (the first run or the recovery
 * sweep's replay).
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { revokeClient } from "../edges/ops/commands";
import { shopperCaller } from "../testing/callers";
import { testCards } from "../payments/sandbox-cards";
import { completeLateAuthorize } from "../purchases/complete-late-authorize";
import { paymentProvider } from "../payments";
import {
  type BuyerOptions,
  createBuyer,
  quoteToSavedAddress,
  setWatch,
  watchableItem,
} from "../testing/watch-fixtures";
import { buyClaimed } from "./evaluate-watch";
import { moveWatch } from "./watch-writer";
import { executingRetryMs, resumeExecutingWatches } from "./watch-jobs";

/** A watch (buy at 80.00, 100.00 in all) on an item now at 75.00, claimed at `claimedAt` with a fresh quote, as the evaluator leaves it before buying. */
const claimedWatch = async (claimedAt = new Date(), options: BuyerOptions = {}) => {
  const buyer = await createBuyer(options);
  const item = await watchableItem(10_000);
  const set = await setWatch(buyer.token, {
    catalog_item_id: String(item.id),
    max_price: 80,
    max_total: 100,
  });
  expect(set.status).toBe(201);
  const watchId = set.body.price_watch_id as number;
  await db().item.update({ where: { id: item.id }, data: { priceCents: 7_500 } });
  const quoteId = await quoteToSavedAddress({
    clientId: buyer.agent.id,
    personId: buyer.person.id,
    itemId: item.id,
  });
  expect(
    await moveWatch(db(), {
      id: watchId,
      event: "claim",
      now: claimedAt,
      data: { quoteId, claimedAt },
    }),
  ).toMatchObject({ status: "executing" });
  return { ...buyer, watchId };
};

const watchRow = (id: number) =>
  db().priceWatch.findUniqueOrThrow({
    where: { id },
    select: { status: true, outcome: true, purchaseId: true },
  });
const purchasesOf = (personId: string) => db().purchase.count({ where: { personId } });

describe("a claimed watch's purchase checks the person's standing under their lock", () => {
  it("the person disconnected the app between the claim and the purchase: the watch ends assistant_disconnected and buys nothing", async () => {
    const { person, agent, watchId } = await claimedWatch();
    await shopperCaller(person.id).account.disconnectApp({ client_id: agent.id });
    expect(await watchRow(watchId)).toMatchObject({
      status: "cancelled",
      outcome: "assistant_disconnected",
    });
    await buyClaimed(db(), watchId, { now: new Date() });
    expect(await purchasesOf(person.id)).toBe(0);
  });

  it("the grant lost purchase:write without its watches being ended (a revoke racing the purchase): the purchase refuses under the lock", async () => {
    const { person, agent, watchId } = await claimedWatch();
    await db().oAuthGrant.updateMany({
      where: { personId: person.id, clientId: agent.id },
      data: { scopes: ["catalog:read", "checkout:write"] },
    });
    await buyClaimed(db(), watchId, { now: new Date() });
    expect(await purchasesOf(person.id)).toBe(0);
    expect(await watchRow(watchId)).toMatchObject({
      status: "cancelled",
      outcome: "assistant_disconnected",
      purchaseId: null,
    });
  });

  it("a revoked client's watch does not buy: ended by the revocation, and refused by the purchase when the revocation ended nothing", async () => {
    const revoked = await claimedWatch();
    expect(await revokeClient(revoked.agent.id)).toMatchObject({
      revoked: true,
      price_watches_ended: 1,
    });
    await buyClaimed(db(), revoked.watchId, { now: new Date() });
    expect(await purchasesOf(revoked.person.id)).toBe(0);
    expect(await watchRow(revoked.watchId)).toMatchObject({
      status: "cancelled",
      outcome: "assistant_disconnected",
    });

    const raced = await claimedWatch();
    await db().apiClient.update({ where: { id: raced.agent.id }, data: { revokedAt: new Date() } });
    await buyClaimed(db(), raced.watchId, { now: new Date() });
    expect(await purchasesOf(raced.person.id)).toBe(0);
    expect(await watchRow(raced.watchId)).toMatchObject({
      status: "cancelled",
      outcome: "assistant_disconnected",
    });
  });

  it("an expired watch's resume does not buy: the recovery sweep's replay refuses, and the watch expires", async () => {
    const claimedAt = new Date(Date.now() - executingRetryMs - 1000);
    const { person, watchId } = await claimedWatch(claimedAt);
    // The watch's time ran out while it was claimed (a crash, then the sweep came back after its expiry).
    await db().priceWatch.update({
      where: { id: watchId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await resumeExecutingWatches(db(), { now: new Date() });
    expect(await purchasesOf(person.id)).toBe(0);
    expect(await watchRow(watchId)).toMatchObject({ status: "expired", outcome: "expired" });
  });

  it("still buys when nothing changed (the same path, the checks passing)", async () => {
    const { person, watchId } = await claimedWatch();
    await buyClaimed(db(), watchId, { now: new Date() });
    expect(await purchasesOf(person.id)).toBe(1);
    expect(await watchRow(watchId)).toMatchObject({ status: "fulfilled", outcome: "bought" });
  });

  it("a purchase made before the disconnect stays the watch's: the executing watch is left to it and records it", async () => {
    // The bank answers late: the purchase exists (processing) and the watch stays executing with it.
    const { person, agent, watchId } = await claimedWatch(new Date(), {
      card: testCards.answersLate,
    });
    await buyClaimed(db(), watchId, { now: new Date() });
    const executing = await watchRow(watchId);
    expect(executing).toMatchObject({ status: "executing", purchaseId: expect.any(String) });
    await shopperCaller(person.id).account.disconnectApp({ client_id: agent.id });
    expect(await watchRow(watchId)).toMatchObject({
      status: "executing",
      purchaseId: executing.purchaseId,
    });
    await completeLateAuthorize(db(), paymentProvider(), {
      id: executing.purchaseId!,
      now: new Date(),
    });
    await resumeExecutingWatches(db(), { now: new Date(Date.now() + executingRetryMs + 1000) });
    expect(await watchRow(watchId)).toMatchObject({
      status: "fulfilled",
      outcome: "bought",
      purchaseId: executing.purchaseId,
    });
    expect(await purchasesOf(person.id)).toBe(1);
  });
});
