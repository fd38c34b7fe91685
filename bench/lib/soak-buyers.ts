/**
 * The people an assistant buys for in the soak: each confirmed, with the bench address saved, both
 * spending limits set and a saved sandbox test card (through the ops command's code, as an operator
 * makes them), linked to one of a few assistants (10 people each, so no assistant passes its own
 * 120-a-minute limit) by a grant and a token with purchase:write. A few stores are opened to assistant purchases
 * and their items restocked (1,000 each), so ten minutes of holds and checkouts do not sell them out.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { shippingAddress } from "./checkout-bodies";

export type Buyer = { personId: string; token: string };

/** Single-variant items of stores that now sell directly to assistants (`ops store:set --agent-checkout direct`). */
export const directItems = async (databaseUrl: string, stores: number) => {
  process.env.DATABASE_URL = databaseUrl;
  const { setStore } = await import("../../server/edges/ops/commands");
  const { storeCanSellSql } = await import("../../server/core/store-can-sell");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: chosen } = await client.query<{ slug: string }>(
      `SELECT s.slug FROM stores s WHERE ${storeCanSellSql("s")} ORDER BY s.id LIMIT $1`,
      [stores],
    );
    for (const { slug } of chosen) await setStore(slug, { agentCheckout: "direct" });
    await client.query(
      `UPDATE variants v SET quantity = 1000 FROM items i JOIN stores s ON s.id = i.store_id WHERE v.item_id = i.id AND s.agent_checkout = 'direct'`,
    );
    const { rows } = await client.query<{ id: number }>(
      `SELECT i.id FROM items i JOIN stores s ON s.id = i.store_id
       WHERE i.status = 'active' AND s.agent_checkout = 'direct' AND ${storeCanSellSql("s")}
         AND (SELECT count(*) FROM variants v WHERE v.item_id = i.id) = 1
       ORDER BY i.id`,
    );
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
};

const buyerScopes = ["catalog:read", "checkout:write", "address:read", "purchase:write"];

/** `count` people ready to be bought for, each with a linked assistant token (`scopes`: purchase:write and its companions unless given). */
export const createBuyers = async (options: {
  databaseUrl: string;
  count: number;
  scopes?: string[];
}): Promise<Buyer[]> => {
  process.env.DATABASE_URL = options.databaseUrl;
  const { createPerson } = await import("../../server/edges/ops/account-commands");
  const { createAgent } = await import("../../prisma/factories");
  const { issueAccessToken } = await import("../../server/auth/tokens");
  const { db } = await import("../../server/platform/db");
  const buyers: Buyer[] = [];
  let agentId = "";
  for (let i = 0; i < options.count; i++) {
    if (i % 10 === 0) agentId = (await createAgent()).id;
    const person = await createPerson({
      email: `soak-${randomUUID().slice(0, 12)}@example.ca`,
      password: `soak password ${randomUUID()}`,
      verified: true,
      "address-json": JSON.stringify(shippingAddress),
      "limit-per-order": "50000.00",
      "limit-per-30-days": "50000.00",
      card: "4242424242424242",
    });
    const scopes = options.scopes ?? buyerScopes;
    // The grant the consent page records when the person ticks the scopes (a watch checks it stands before it buys).
    const grant = await db().oAuthGrant.create({
      data: {
        id: `grt_${randomUUID().replace(/-/g, "")}`,
        clientId: agentId,
        personId: person.person_id,
        scopes,
        audience: "api",
        consentNonce: randomUUID(),
        expiresAt: new Date(Date.now() + 30 * 86_400_000),
      },
    });
    const { token } = await issueAccessToken(db(), {
      clientId: agentId,
      personId: person.person_id,
      scopes,
      grantId: grant.id,
      now: new Date(),
    });
    buyers.push({ personId: person.person_id, token });
  }
  return buyers;
};
