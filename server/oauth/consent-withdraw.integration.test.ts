/**
 * The person's latest decision on purchase:write wins (issue 24, M8): approving an assistant again
 * with purchase:write left unticked takes it from every grant the assistant holds for them (other
 * scopes stay), in the same transaction ends its live watches (assistant_disconnected, emailed), and
 * stops the access and refresh tokens already issued from buying. Ticking it again, or an approval
 * that did not ask for it, changes nothing. The consent page shows it ticked while it is granted.
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { buy, quoteOf } from "../testing/agent-purchases";
import { obtainCode, token } from "../testing/oauth";
import { createBuyer, setWatch, watchableItem } from "../testing/watch-fixtures";
import { grantedOptInScopes } from "./consent";
import { listConnectedApps } from "./grants";

const fullScope = "catalog:read checkout:write address:read purchase:write";

/** A buyer with one active watch set by their assistant. */
const watchingBuyer = async () => {
  const buyer = await createBuyer();
  const item = await watchableItem(10_000);
  const { status, body } = await setWatch(buyer.token, {
    catalog_item_id: String(item.id),
    max_price: 80,
    max_total: 100,
  });
  expect(status).toBe(201);
  return { ...buyer, item, watchId: body.price_watch_id as number };
};

/** The person approves the assistant again, ticking `tick`. */
const approveAgain = (
  buyer: Awaited<ReturnType<typeof watchingBuyer>>,
  tick: string[],
  scope = fullScope,
) =>
  obtainCode({
    personId: buyer.person.id,
    clientId: buyer.agent.id,
    redirectUri: buyer.agent.redirectUris[0],
    scope,
    tick,
  });

const grantsOf = (buyer: { person: { id: string }; agent: { id: string } }) =>
  db().oAuthGrant.findMany({
    where: { personId: buyer.person.id, clientId: buyer.agent.id },
    select: { scopes: true, revokedAt: true },
    orderBy: { createdAt: "asc" },
  });

const watchRow = (id: number) =>
  db().priceWatch.findUniqueOrThrow({ where: { id }, select: { status: true, outcome: true } });

describe("approving an assistant again without purchase:write withdraws it (M8)", () => {
  it("takes purchase:write from every earlier grant (other scopes stay) and ends the assistant's live watches, emailed", async () => {
    const buyer = await watchingBuyer();
    expect(await grantedOptInScopes(buyer.person.id, buyer.agent.id)).toEqual(["purchase:write"]);
    await approveAgain(buyer, []);
    const grants = await grantsOf(buyer);
    expect(grants).toHaveLength(2);
    for (const grant of grants) {
      expect(grant.revokedAt).toBeNull();
      expect(grant.scopes).toEqual(["catalog:read", "checkout:write", "address:read"]);
    }
    expect(await watchRow(buyer.watchId)).toMatchObject({
      status: "cancelled",
      outcome: "assistant_disconnected",
    });
    const emails = await db().emailMessage.findMany({
      where: { to: buyer.person.email, template: "price-watch-ended" },
      select: { props: true },
    });
    expect(emails).toEqual([
      { props: expect.objectContaining({ outcome: "assistant_disconnected" }) },
    ]);
    expect(await grantedOptInScopes(buyer.person.id, buyer.agent.id)).toEqual([]);
    const [app] = await listConnectedApps(db(), { personId: buyer.person.id, now: new Date() });
    expect(app.scopes).not.toContain("purchase:write");
  });

  it("the access token issued before can no longer buy (403 insufficient_scope), and its refresh token buys none that can", async () => {
    const buyer = await watchingBuyer();
    const item = await watchableItem(2_000);
    const quote = await quoteOf(buyer.token, [item.id]);
    await approveAgain(buyer, []);
    const bought = await buy(buyer.token, quote.quote_id);
    expect([bought.status, bought.body.error?.code]).toEqual([403, "insufficient_scope"]);
    expect(await db().purchase.count({ where: { personId: buyer.person.id } })).toBe(0);
    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: buyer.refreshToken,
      client_id: buyer.agent.id,
    });
    expect(refreshed.status).toBe(200);
    const tokens = await refreshed.json();
    expect(tokens.scope.split(" ")).not.toContain("purchase:write");
    const again = await buy(
      tokens.access_token,
      (await quoteOf(tokens.access_token, [item.id])).quote_id,
    );
    expect([again.status, again.body.error?.code]).toEqual([403, "insufficient_scope"]);
  });

  it("ticking it again keeps it and the watch; an approval that did not ask for it leaves it too", async () => {
    const buyer = await watchingBuyer();
    await approveAgain(buyer, ["purchase:write"]);
    await approveAgain(buyer, [], "catalog:read");
    const grants = await grantsOf(buyer);
    expect(grants.map((grant) => grant.scopes.includes("purchase:write"))).toEqual([
      true,
      true,
      false,
    ]);
    expect(await watchRow(buyer.watchId)).toMatchObject({ status: "active", outcome: null });
    expect(await grantedOptInScopes(buyer.person.id, buyer.agent.id)).toEqual(["purchase:write"]);
  });
});
