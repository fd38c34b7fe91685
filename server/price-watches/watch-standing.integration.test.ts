/**
 * The person's change ends their watches at once, not at the next price change: lowering the
 * per-order limit below max_total, pausing, disconnecting the assistant on the dashboard, the
 * assistant revoking its own refresh token (RFC 7009), the operator revoking the client. Each ends
 * the active watch in the change's own transaction with its outcome and the ended email; a watch
 * the change leaves buyable stays active; an executing watch ends too unless its purchase exists
 * (watch-purchase-standing.integration.test.ts).
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { revokeClient } from "../edges/ops/commands";
import { shopperCaller } from "../testing/callers";
import { revoke } from "../testing/oauth";
import { createBuyer, getWatch, setWatch, watchableItem } from "../testing/watch-fixtures";
import { moveWatch } from "./watch-writer";

/** A buyer with watches on $100 items: buy at $80 or less, at most the given totals. */
const watching = async (maxTotals: number[] = [100]) => {
  const buyer = await createBuyer();
  const watchIds: number[] = [];
  for (const maxTotal of maxTotals) {
    const item = await watchableItem(10_000);
    const { status, body } = await setWatch(buyer.token, {
      catalog_item_id: String(item.id),
      max_price: 80,
      max_total: maxTotal,
    });
    expect(status).toBe(201);
    watchIds.push(body.price_watch_id as number);
  }
  return { ...buyer, watchIds };
};

const watchRow = (id: number) =>
  db().priceWatch.findUniqueOrThrow({
    where: { id },
    select: { status: true, outcome: true, endedAt: true },
  });
const endedEmails = (to: string) =>
  db().emailMessage.findMany({
    where: { to, template: "price-watch-ended" },
    select: { props: true },
  });

describe("a change of the person's settings ends the watches it affects, at once", () => {
  it("a per-order limit below max_total ends that watch (limits_lowered, emailed); one still within the limit stays active", async () => {
    const {
      person,
      token,
      watchIds: [big, small],
    } = await watching([300, 100]);
    await shopperCaller(person.id).account.setSpendingLimits({
      limit_per_order: "200.00",
      limit_per_30_days: "1000.00",
    });
    expect(await watchRow(big)).toMatchObject({
      status: "cancelled",
      outcome: "limits_lowered",
      endedAt: expect.any(Date),
    });
    expect(await watchRow(small)).toMatchObject({ status: "active", outcome: null });
    expect(await endedEmails(person.email)).toEqual([
      { props: expect.objectContaining({ outcome: "limits_lowered" }) },
    ]);
    expect((await getWatch(token, big)).body).toMatchObject({
      status: "cancelled",
      outcome: "limits_lowered",
    });
  });

  it("pausing ends every active watch (purchases_paused); resuming brings none back and pausing again ends nothing more", async () => {
    const { person, watchIds } = await watching([100, 100]);
    const shopper = shopperCaller(person.id);
    await shopper.account.setPurchasesPaused({ paused: true });
    for (const id of watchIds)
      expect(await watchRow(id)).toMatchObject({
        status: "cancelled",
        outcome: "purchases_paused",
      });
    await shopper.account.setPurchasesPaused({ paused: false });
    await shopper.account.setPurchasesPaused({ paused: true });
    for (const id of watchIds) expect((await watchRow(id)).status).toBe("cancelled");
    expect(await endedEmails(person.email)).toHaveLength(2);
  });

  it("disconnecting the assistant on the dashboard ends its watches (assistant_disconnected); another assistant's watch stays", async () => {
    const mine = await watching([100]);
    const other = await watching([100]);
    await shopperCaller(mine.person.id).account.disconnectApp({ client_id: mine.agent.id });
    expect(await watchRow(mine.watchIds[0])).toMatchObject({
      status: "cancelled",
      outcome: "assistant_disconnected",
    });
    expect((await watchRow(other.watchIds[0])).status).toBe("active");
    expect(await endedEmails(mine.person.email)).toEqual([
      { props: expect.objectContaining({ outcome: "assistant_disconnected" }) },
    ]);
  });

  it("the assistant revoking its refresh token (POST /oauth/revoke) ends the watches that grant allowed", async () => {
    const { agent, refreshToken, watchIds } = await watching([100]);
    expect((await revoke({ token: refreshToken, client_id: agent.id })).status).toBe(200);
    expect(await watchRow(watchIds[0])).toMatchObject({
      status: "cancelled",
      outcome: "assistant_disconnected",
    });
  });

  it("the operator revoking the client (ops client:revoke) ends its watches for every person; it says how many", async () => {
    const { agent, watchIds } = await watching([100, 100]);
    expect(await revokeClient(agent.id)).toMatchObject({
      revoked: true,
      changed: true,
      price_watches_ended: 2,
    });
    for (const id of watchIds)
      expect(await watchRow(id)).toMatchObject({
        status: "cancelled",
        outcome: "assistant_disconnected",
      });
    expect(await revokeClient(agent.id)).toMatchObject({ changed: false, price_watches_ended: 0 });
  });

  it("a watch buying at that moment (executing) ends too while its purchase does not exist", async () => {
    const {
      person,
      watchIds: [id],
    } = await watching([100]);
    await db().$transaction((tx) => moveWatch(tx, { id, event: "claim", now: new Date() }));
    await shopperCaller(person.id).account.setPurchasesPaused({ paused: true });
    expect(await watchRow(id)).toMatchObject({ status: "cancelled", outcome: "purchases_paused" });
    expect(await endedEmails(person.email)).toHaveLength(1);
  });
});
