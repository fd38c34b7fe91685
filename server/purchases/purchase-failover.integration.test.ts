/**
 * PostgreSQL failing over in the middle of POST /purchases: every connection is cut just before a
 * chosen statement (a TCP proxy in front of the real database), then the database comes back; or a
 * stuck session holds the person's row lock. The
 * purchase ends held or refused, never half-written (a purchase without its payment, a hold nobody
 * records or releases) and never twice (one purchase per quote, one hold in the processor ledger).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseProxy } from "../testing/db-proxy";

const proxy = databaseProxy();
beforeAll(() => proxy.use());
afterAll(() => proxy.cut());

/** The module graph is loaded after the proxy is in place, so the pool connects through it. */
const load = async () => ({
  ...(await import("../testing/agent-purchases")),
  ...(await import("../testing/purchase-ledger")),
  ...(await import("./reconcile-purchases")),
  ...(await import("../payments/sandbox")),
  ...(await import("../platform/db")),
});

/** Retries a call until the pool has reconnected (the first calls after the outage may still see it). */
const afterRecovery = async <T extends { status: number }>(call: () => Promise<T>) => {
  for (let attempt = 0; ; attempt++) {
    const result = await call();
    if (result.status !== 503 || attempt === 20) return result;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/**
 * Reopens the proxy and waits until the test's own Prisma pool answers: a pooled connection the
 * outage cut fails its first use (as a request's would, with 503), before the pool replaces it.
 */
const reopen = async () => {
  await proxy.open();
  const { db } = await load();
  for (let attempt = 0; ; attempt++) {
    try {
      return void (await db().$queryRaw`SELECT 1`);
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
};

const rowsOf = async (quoteId: string) => {
  const { db } = await load();
  const purchases = await db().purchase.findMany({
    where: { quoteId },
    select: { id: true, status: true, reason: true },
  });
  const payments = await db().payment.findMany({
    where: { purchaseId: { in: purchases.map((purchase) => purchase.id) } },
    select: { status: true },
  });
  return { purchases, payments };
};

describe("PostgreSQL failing over in the middle of a purchase", () => {
  it("cut before the purchase is written: 503, nothing written, nothing held; the same key then buys once", async () => {
    const { agentWithPerson, directItem, quoteOf, buy, db } = await load();
    const { token } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    const holdsBefore = await db().sandboxPayment.count();
    proxy.cutBefore(/INSERT INTO purchases /);
    const down = await buy(token, quote.quote_id, key);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    await reopen();
    expect(await rowsOf(quote.quote_id)).toEqual({ purchases: [], payments: [] });
    expect(await db().sandboxPayment.count()).toBe(holdsBefore);

    // The outage consumed nothing: the same key buys. Its claim may still be held for a moment by
    // the cut session until PostgreSQL notices it is gone (409 in use, with Retry-After); never for
    // good, and never a stored answer of the failed try.
    let bought = await afterRecovery(() => buy(token, quote.quote_id, key));
    for (let wait = 0; bought.status === 409 && wait < 20; wait++) {
      expect(bought.body.error.code).toBe("idempotency_key_in_use");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      bought = await buy(token, quote.quote_id, key);
    }
    expect(bought.status).toBe(201);
    expect(bought.headers.get("idempotent-replayed")).toBeNull();
    const { sandboxLedger } = await load();
    expect(await sandboxLedger(bought.body.purchase_id)).toMatchObject({
      status: "authorized",
      holds: 1,
      captures: 0,
    });
    const again = await buy(token, quote.quote_id, randomUUID());
    expect(again).toMatchObject({
      status: 409,
      body: { error: { code: "quote_already_purchased" } },
    });
    expect((await rowsOf(quote.quote_id)).purchases).toHaveLength(1);
  }, 60_000);

  it("cut between the processor's hold and our record of it: 503; the purchase stays processing with its payment, reconciliation releases the hold once; no second purchase or hold", async () => {
    const {
      agentWithPerson,
      directItem,
      quoteOf,
      buy,
      reconcilePurchases,
      sandboxProvider,
      sandboxLedger,
      db,
    } = await load();
    const { token } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    // Step 4 of the purchase (record-answer.ts): the transaction recording the hold starts with this update.
    proxy.cutBefore(/UPDATE payments SET status = 'authorized'/);
    const down = await buy(token, quote.quote_id, key);
    expect(down.status).toBe(503);
    await reopen();

    const interrupted = await afterRecovery(async () => ({
      status: 200,
      ...(await rowsOf(quote.quote_id)),
    }));
    expect(interrupted.purchases).toMatchObject([{ status: "processing" }]);
    expect(interrupted.payments).toEqual([{ status: "authorizing" }]);
    const [{ id }] = interrupted.purchases;
    expect(await sandboxLedger(id)).toMatchObject({ status: "authorized", holds: 1 });

    // Neither the same key nor a new one buys the quote a second time.
    const sameKey = await afterRecovery(() => buy(token, quote.quote_id, key));
    expect(sameKey.status).toBe(409);
    expect(["idempotency_key_in_use", "quote_already_purchased"]).toContain(
      sameKey.body.error.code,
    );
    expect((await buy(token, quote.quote_id, randomUUID())).body.error.code).toBe(
      "quote_already_purchased",
    );

    await reconcilePurchases(db(), {
      now: new Date(Date.now() + 120_000),
      provider: sandboxProvider(),
    });
    expect((await rowsOf(quote.quote_id)).purchases).toMatchObject([
      { id, status: "refused", reason: "bank_no_answer" },
    ]);
    expect(await sandboxLedger(id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    // A second reconciliation pass finds nothing left to do.
    await reconcilePurchases(db(), {
      now: new Date(Date.now() + 240_000),
      provider: sandboxProvider(),
    });
    expect(await sandboxLedger(id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  }, 60_000);

  it("cut right after the answer's commit, before the service hears it (B4-04, B4-14): the same key then replays the committed purchase, one hold, nothing released", async () => {
    const { agentWithPerson, directItem, quoteOf, buy } = await load();
    const { token } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    // The record transaction stores the answer under the key; its COMMIT succeeds on the server.
    proxy.cutAfterCommitOf(/UPDATE idempotency_records SET response_status/);
    const lost = await buy(token, quote.quote_id, key);
    expect(lost.status).toBe(503);
    await reopen();
    const replayed = await afterRecovery(() => buy(token, quote.quote_id, key));
    expect([replayed.status, replayed.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(replayed.body.status).toBe("held");
    const { purchases, payments } = await rowsOf(quote.quote_id);
    expect(purchases).toEqual([{ id: replayed.body.purchase_id, status: "held", reason: null }]);
    expect(payments).toEqual([{ status: "authorized" }]);
    const { sandboxLedger } = await load();
    expect(await sandboxLedger(replayed.body.purchase_id)).toMatchObject({
      status: "authorized",
      holds: 1,
      captures: 0,
      releases: 0,
    });
  }, 60_000);

  it("a person's row locked by a stuck session: 503 with Retry-After within 5 s (lock_timeout), not a hang; nothing written or held; the same key buys once the lock is gone", async () => {
    const { agentWithPerson, directItem, quoteOf, buy, db } = await load();
    const { token, person } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const stuck = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await stuck.connect();
    await stuck.query("BEGIN");
    await stuck.query("SELECT 1 FROM persons WHERE id = $1 FOR UPDATE", [person.id]);
    const key = randomUUID();
    const holdsBefore = await db().sandboxPayment.count();
    const started = Date.now();
    const refused = await buy(token, quote.quote_id, key);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect([refused.status, refused.headers.get("retry-after"), refused.body.error.code]).toEqual([
      503,
      "5",
      "unavailable",
    ]);
    expect((await rowsOf(quote.quote_id)).purchases).toEqual([]);
    expect(await db().sandboxPayment.count()).toBe(holdsBefore);
    await stuck.query("ROLLBACK");
    await stuck.end();
    const bought = await buy(token, quote.quote_id, key);
    expect(bought.status).toBe(201);
  }, 60_000);
});
