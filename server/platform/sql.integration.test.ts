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

it("BEGIN is not waited for, yet every statement of the work runs in the one transaction", async () => {
  const { sqlTransaction } = await import("./sql");
  const ids = await sqlTransaction(async (sql) => [
    ...(await sql.$queryRaw<{ id: string }[]>`SELECT txid_current()::text AS id`),
    ...(await sql.$queryRaw<{ id: string }[]>`SELECT txid_current()::text AS id`),
  ]);
  expect(ids).toHaveLength(2);
  expect(ids[0].id).toBe(ids[1].id);
});

it("a connection cut in the middle of the work: its error is thrown, nothing is committed, and the next transaction gets a working connection", async () => {
  const { sqlTransaction } = await import("./sql");
  const { db } = await import("./db");
  const { Prisma } = await import("../generated/prisma/client");
  const table = Prisma.raw(`sql_cut_${process.pid}`);
  await db().$executeRaw`CREATE TABLE IF NOT EXISTS ${table} (id int)`;
  await expect(
    sqlTransaction(async (sql) => {
      await sql.$executeRaw`INSERT INTO ${table} VALUES (1)`;
      const [{ pid }] = await sql.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await db().$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      await sql.$executeRaw`INSERT INTO ${table} VALUES (2)`;
    }),
  ).rejects.toThrow();
  expect(await db().$queryRaw`SELECT count(*)::int AS count FROM ${table}`).toEqual([{ count: 0 }]);
  const [row] = await sqlTransaction((sql) => sql.$queryRaw<{ one: number }[]>`SELECT 1 AS one`);
  expect(row).toEqual({ one: 1 });
  await db().$executeRaw`DROP TABLE ${table}`;
});

it("statements sent together run one after the other in the transaction, and the first failure is the one thrown", async () => {
  const { pipelined, sqlTransaction } = await import("./sql");
  // The second starts on the server only once the first has finished (what the person's lock and the state read rely on).
  const [[first], [second]] = await sqlTransaction((sql) =>
    pipelined([
      sql.$queryRaw<{ ended: Date }[]>`SELECT pg_sleep(0.05), clock_timestamp() AS ended`,
      sql.$queryRaw<{ started: Date }[]>`SELECT statement_timestamp() AS started`,
    ]),
  );
  expect(second.started.getTime()).toBeGreaterThanOrEqual(first.ended.getTime());
  // A failed statement aborts the transaction, so the ones behind it fail too: its own error is thrown, not theirs.
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    await expect(
      sqlTransaction((sql) =>
        pipelined([
          sql.$queryRaw`SELECT 1`,
          sql.$queryRaw`SELECT 1 / 0`,
          sql.$queryRaw`SELECT 2`,
          undefined,
        ]),
      ),
    ).rejects.toMatchObject({ code: "22012" });
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  expect(unhandled).toEqual([]);
  const [row] = await sqlTransaction((sql) => sql.$queryRaw<{ one: number }[]>`SELECT 1 AS one`);
  expect(row).toEqual({ one: 1 });
});
