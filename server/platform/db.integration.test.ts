/**
 * An overloaded database (a pool with no free connection, an interactive transaction that outlives
 * its timeout) is "unavailable": the edges answer 503 with Retry-After, never 500. The embedded
 * default under heavy load produced exactly these errors as 500s.
 */
import { describe, expect, it } from "vitest";
import { db, isDatabaseUnavailable } from "./db";

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

  it("a query error is not unavailability", async () => {
    const error = await failure(() => db().$queryRaw`SELECT no_such_column FROM items`);
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
