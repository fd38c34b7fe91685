/** Raw-SQL transactions: named statements stay right when two copies of the module share the pool (as Next's bundles do). */
import { expect, it, vi } from "vitest";

it("two copies of the module give different texts different statement names on one shared connection", async () => {
  const first = await import("./sql");
  await first.sqlTransaction((sql) => sql.$queryRaw`SELECT 1 AS one`);
  vi.resetModules();
  const second = await import("./sql");
  expect(second).not.toBe(first);
  // The pool (on globalThis) hands back the connection just released, where the first text is prepared.
  const [row] = await second.sqlTransaction(
    (sql) => sql.$queryRaw<{ two: number }[]>`SELECT 2 AS two`,
  );
  expect(row).toEqual({ two: 2 });
});

it("rolls back when the work throws, and the connection serves the next transaction", async () => {
  const { sqlTransaction } = await import("./sql");
  const table = `sql_probe_${process.pid}`;
  await sqlTransaction((sql) => sql.$executeRaw`SELECT 1`);
  const { db } = await import("./db");
  await db().$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS ${table} (id int)`);
  await expect(
    sqlTransaction(async (sql) => {
      await sql.$executeRaw`INSERT INTO ${(await import("../generated/prisma/client")).Prisma.raw(table)} VALUES (1)`;
      throw new Error("refused");
    }),
  ).rejects.toThrow("refused");
  expect(await db().$queryRawUnsafe(`SELECT count(*)::int AS count FROM ${table}`)).toEqual([
    { count: 0 },
  ]);
  await db().$executeRawUnsafe(`DROP TABLE ${table}`);
});
