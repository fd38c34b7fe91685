/**
 * A process killed mid-purchase, then restarted: a real child process runs POST /purchases through
 * the real route handler against the real database, through a proxy that holds back a chosen
 * statement; when it arrives the child is killed with SIGKILL (no cleanup runs). A second process,
 * "restarted", runs the due-work sweep as `npm start` does without an Inngest server. Whatever the
 * point, nothing is lost (the purchase ends refused with its reason, the item's stock given back,
 * a hold released) and nothing happens twice (one purchase per quote, one hold, no capture), and a
 * second restart changes nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentWithPerson, buy, directItem, quoteOf } from "../testing/agent-purchases";
import { crashHarness } from "../testing/crash-process";
import { databaseProxy } from "../testing/db-proxy";
import { sandboxLedger } from "../testing/purchase-ledger";
import { db } from "../platform/db";

const proxy = databaseProxy();
beforeAll(() => proxy.open());
afterAll(() => proxy.cut());

const { killedAt: killedWith, restart } = crashHarness(proxy);

/** Starts a purchase in a child process and SIGKILLs it when `statement` reaches the proxy. */
const killedAt = (statement: RegExp, token: string, quoteId: string) =>
  killedWith(statement, ["buy", token, quoteId, randomUUID()]);

const state = async (quoteId: string, itemId: number) => {
  const purchases = await db().purchase.findMany({
    where: { quoteId },
    select: { id: true, status: true, reason: true },
  });
  const stock = await db().variant.aggregate({ where: { itemId }, _sum: { quantity: true } });
  return { purchases, stock: stock._sum.quantity };
};

const prepared = async () => {
  const { token } = await agentWithPerson();
  const item = await directItem();
  const quote = await quoteOf(token, [item.id]);
  return { token, item, quote, stockBefore: (await state(quote.quote_id, item.id)).stock };
};

describe("a process killed mid-purchase, then restarted", () => {
  it("killed before the purchase is written: nothing written, nothing held; the quote can still be bought, once", async () => {
    const { token, item, quote, stockBefore } = await prepared();
    const holdsBefore = await db().sandboxPayment.count();
    await killedAt(/INSERT INTO purchases /, token, quote.quote_id);
    await restart(new Date(Date.now() + 120_000));
    expect(await state(quote.quote_id, item.id)).toEqual({ purchases: [], stock: stockBefore });
    expect(await db().sandboxPayment.count()).toBe(holdsBefore);
    const bought = await buy(token, quote.quote_id);
    expect(bought.status).toBe(201);
    expect(await sandboxLedger(bought.body.purchase_id)).toMatchObject({
      status: "authorized",
      holds: 1,
      captures: 0,
    });
  }, 180_000);

  it("killed after the purchase is written and before the processor is asked: refused processor_timeout, no hold, stock given back", async () => {
    const { token, item, quote, stockBefore } = await prepared();
    await killedAt(
      /INSERT INTO sandbox_processor_requests|INSERT INTO sandbox_payments/,
      token,
      quote.quote_id,
    );
    const [{ id }] = (await state(quote.quote_id, item.id)).purchases;
    await restart(new Date(Date.now() + 120_000));
    const after = await state(quote.quote_id, item.id);
    expect(after).toEqual({
      purchases: [
        {
          id,
          status: "refused",
          reason: expect.stringMatching(/processor_timeout|bank_no_answer/),
        },
      ],
      stock: stockBefore,
    });
    expect(
      await db().sandboxPayment.count({ where: { idempotencyKey: { startsWith: `${id}:` } } }),
    ).toBe(0);
    await restart(new Date(Date.now() + 240_000));
    expect(await state(quote.quote_id, item.id)).toEqual(after);
  }, 180_000);

  it("killed between the processor's hold and our record of it: refused bank_no_answer, the hold released once, nothing captured, stock given back", async () => {
    const { token, item, quote, stockBefore } = await prepared();
    await killedAt(/UPDATE payments SET status = 'authorized'/, token, quote.quote_id);
    const [{ id }] = (await state(quote.quote_id, item.id)).purchases;
    expect(await sandboxLedger(id)).toMatchObject({ status: "authorized", holds: 1 });
    await restart(new Date(Date.now() + 120_000));
    const after = await state(quote.quote_id, item.id);
    expect(after).toEqual({
      purchases: [{ id, status: "refused", reason: "bank_no_answer" }],
      stock: stockBefore,
    });
    expect(await sandboxLedger(id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    await restart(new Date(Date.now() + 240_000));
    expect(await state(quote.quote_id, item.id)).toEqual(after);
    expect(await sandboxLedger(id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    // Nor can the quote be bought a second time after the crash.
    expect((await buy(token, quote.quote_id)).body.error.code).toBe("quote_already_purchased");
  }, 180_000);
});
