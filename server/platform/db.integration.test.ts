/**
 * An overloaded database (a pool with no free connection, an interactive transaction that outlives
 * its timeout) is "unavailable": the edges answer 503 with Retry-After, never 500. The embedded
 * default under heavy load produced exactly these errors as 500s.
 */
import { describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { db, isDatabaseUnavailable, rawPool } from "./db";

const failure = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected the work to fail");
};

describe("isDatabaseUnavailable", () => {
  it("an interactive transaction that expired is unavailable (retry), not an internal error", async () => {
    const error = await failure(() =>
      db().$transaction(
        async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          return tx.item.findFirst();
        },
        { timeout: 50 },
      ),
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("a transaction that cannot start in time is unavailable", async () => {
    const holders = Array.from({ length: 10 }, () =>
      db().$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT pg_sleep(1)::text`;
        },
        { timeout: 5000 },
      ),
    );
    const error = await failure(() =>
      db().$transaction(async (tx) => tx.item.findFirst(), { maxWait: 20 }),
    );
    await Promise.all(holders);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("every pooled connection cancels a statement after 30 s", async () => {
    const [viaPrisma] = await db().$queryRaw<
      { statement_timeout: string }[]
    >`SHOW statement_timeout`;
    const { rows } = await rawPool().query<{ statement_timeout: string }>("SHOW statement_timeout");
    expect(viaPrisma.statement_timeout).toBe("30s");
    expect(rows[0].statement_timeout).toBe("30s");
  });

  it("a statement cancelled at its timeout is unavailable (503), through Prisma and the raw pool", async () => {
    const viaPrisma = await failure(() =>
      db().$transaction(async (tx) => {
        await tx.$executeRaw`SET LOCAL statement_timeout = 50`;
        await tx.$queryRaw`SELECT pg_sleep(2)::text`;
      }),
    );
    // Two statements in one message run as one implicit transaction: the shorter limit ends with it.
    const viaRaw = await failure(() =>
      rawPool().query("SELECT set_config('statement_timeout', '50', true); SELECT pg_sleep(2)"),
    );
    expect((viaRaw as { code?: string }).code).toBe("57014");
    expect(isDatabaseUnavailable(viaPrisma)).toBe(true);
    expect(isDatabaseUnavailable(viaRaw)).toBe(true);
    // The pooled connections are clean afterwards: the next statements run under the 30 s limit.
    const { rows } = await rawPool().query<{ statement_timeout: string }>("SHOW statement_timeout");
    expect(rows[0].statement_timeout).toBe("30s");
  });

  it("a deadlock PostgreSQL broke (40P01) is unavailable: that transaction was rolled back whole, so a retry is safe (B5-05)", async () => {
    const [a, b] = await Promise.all([rawPool().connect(), rawPool().connect()]);
    const first = (await createPerson()).person.id;
    const second = (await createPerson()).person.id;
    try {
      await a.query("BEGIN");
      await b.query("BEGIN");
      await a.query("UPDATE persons SET purchases_paused = false WHERE id = $1", [first]);
      await b.query("UPDATE persons SET purchases_paused = false WHERE id = $1", [second]);
      // Each now waits for the other's row: PostgreSQL breaks the cycle after deadlock_timeout (1 s).
      const answers = await Promise.allSettled([
        a.query("UPDATE persons SET purchases_paused = false WHERE id = $1", [second]),
        b.query("UPDATE persons SET purchases_paused = false WHERE id = $1", [first]),
      ]);
      const broken = answers.flatMap((answer) =>
        answer.status === "rejected" ? [answer.reason as { code?: string }] : [],
      );
      expect(broken.map((error) => error.code)).toEqual(["40P01"]);
      expect(isDatabaseUnavailable(broken[0])).toBe(true);
    } finally {
      await a.query("ROLLBACK").catch(() => undefined);
      await b.query("ROLLBACK").catch(() => undefined);
      a.release();
      b.release();
    }
  });

  it("a query error is not unavailability", async () => {
    const error = await failure(() => db().$queryRaw`SELECT no_such_column FROM items`);
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
