/**
 * Raw-SQL transactions on the plain `pg` pool, for the few write paths where Prisma's per-statement
 * CPU (about 1 ms a statement and 1 ms a transaction, against well under 0.1 ms on a `pg` client
 * already checked out) is most of the request: POST /purchases and the sandbox processor's ledger.
 *
 * `Sql` is what such a step needs of a transaction: Prisma's tagged templates `$queryRaw` and
 * `$executeRaw`. A Prisma `Tx` has them, and so does the client `sqlTransaction` hands out, so a
 * writer typed with `Sql` (openPayment, reserve, the idempotency claim) is written once and runs in
 * either. Rows come back as `pg` parses them: timestamptz as Date, int4 as number, json as objects;
 * cast counts and sums to int in the SQL (int8 would be a bigint in Prisma and a string here).
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { rawPool, type Tx } from "./db";
import { Prisma } from "../generated/prisma/client";

export type Sql = Pick<Tx, "$queryRaw" | "$executeRaw">;

/**
 * Each statement text is prepared once per connection (a named statement: PostgreSQL parses and
 * plans it once, about a quarter of its CPU per purchase). The name is a hash of the text, not a
 * counter: Next's bundles can hold two copies of this module sharing one pool (globalThis), and
 * two counters would give one name to two texts on a connection. The map, also shared, caps how
 * many distinct texts get a name.
 */
const globalForSql = globalThis as unknown as { shoppingStatementNames?: Map<string, string> };
const maxNamedStatements = 500;

const nameOf = (text: string) => {
  const names = (globalForSql.shoppingStatementNames ??= new Map());
  let name = names.get(text);
  if (!name && names.size < maxNamedStatements)
    names.set(text, (name = `sql_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`));
  return name;
};

const run = async (
  target: Pick<pg.Pool, "query">,
  strings: TemplateStringsArray | Prisma.Sql,
  values: unknown[],
  prepared: boolean,
) => {
  const statement = strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...values);
  return target.query({
    name: prepared ? nameOf(statement.text) : undefined,
    text: statement.text,
    values: statement.values as unknown[],
  });
};

/** Prisma's two tagged templates over a checked-out `pg` client, or over the pool (`target` is read at each statement). */
const onQueryable = (target: () => Pick<pg.Pool, "query">, prepared = true): Sql => ({
  $queryRaw: (async (strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
    (await run(target(), strings, values, prepared)).rows) as unknown as Sql["$queryRaw"],
  $executeRaw: (async (strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
    (await run(target(), strings, values, prepared)).rowCount ??
    0) as unknown as Sql["$executeRaw"],
});

/**
 * Single statements on the pool, each in its own implicit transaction (a read, or one conditional
 * update): a connection is taken per statement, so never use it for steps that must commit together.
 */
export const poolSql: Sql = onQueryable(() => rawPool());

/**
 * `poolSql` planned at every run (an unnamed statement), for a periodic read whose best plan
 * depends on the size of a table that goes from empty to millions of rows (the search watches'
 * pending matches). A named statement gets a generic plan after five runs and keeps it: one made
 * while the table was empty scans it whole for each outer row once it is full (a digest search
 * still running after 18 minutes in the watches benchmark), and nothing replaces it until the
 * table is analyzed, which a server without autovacuum never does (ADR 0132). Planning costs a
 * fraction of a millisecond; use it for statements that run every few seconds, not per request.
 */
export const poolSqlReplanned: Sql = onQueryable(() => rawPool(), false);

/**
 * Runs `work` in one transaction on a `pg` client: committed when it returns, rolled back when it
 * throws (the error is rethrown as it came: a unique violation has `code` "23505"). The pool's
 * sessions end a transaction left idle for 5 s (as Prisma's transaction timeout would).
 *
 * The pool's clients pipeline (db.ts), so BEGIN is not waited for: it goes out with the work's
 * first statement, one round trip fewer a transaction. BEGIN on a working connection cannot fail;
 * if the connection fails, the statements behind it fail with it, and its error is thrown here.
 */
export const sqlTransaction = async <T>(work: (sql: Sql) => Promise<T>): Promise<T> => {
  const client = await rawPool().connect();
  let broken: Error | undefined;
  // A checked-out client's connection error is emitted on the client (the pool listens only to idle
  // ones): without a listener it would end the process. The statement in flight fails with it too.
  const onError = (error: Error) => (broken = error);
  client.on("error", onError);
  try {
    const begun = client.query("BEGIN").then(
      () => undefined,
      (error: Error) => (broken = error),
    );
    try {
      const result = await work(onQueryable(() => client));
      const failed = await begun;
      if (failed) throw failed;
      await client.query("COMMIT");
      return result;
    } catch (error) {
      // A failed BEGIN or rollback means the connection itself failed.
      await begun;
      if (!broken)
        await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    }
  } finally {
    // A connection that failed mid-transaction is dropped, never handed to the next caller.
    client.off("error", onError);
    client.release(broken);
  }
};

/**
 * Statements sent together on one transaction's client, awaited together: the pool's clients
 * pipeline (db.ts), so each goes out at once and PostgreSQL runs it after the one before, and the
 * group costs one round trip instead of one each. Resolves with their results in order, or rejects
 * with the first failure in the order sent (those behind a failed statement fail only because its
 * transaction is aborted). Every promise is awaited first, so none is left to reject unhandled.
 * Start each statement before anything is awaited, in the order they must run (an `undefined`
 * entry, a step that does not apply, is passed through).
 */
export const pipelined = async <T extends readonly unknown[]>(
  statements: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> => {
  const settled = await Promise.allSettled(statements);
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
};

/**
 * `column = ANY(values)` for a statement prepared once (server/platform/sql.ts), written `column = $1` when
 * there is one value. PostgreSQL re-plans a prepared statement at every execution while its plan
 * for any number of values costs more than its plan for these (it assumes ten), and an array
 * parameter always does; under a sale that planning cost as much CPU as running the statements
 * (pg_stat_statements). With one value, the common case (one watch, one item, one line), it plans once.
 */
export const anyOf = (
  column: Prisma.Sql,
  values: readonly (number | string)[],
  type: "int" | "text",
) =>
  values.length === 1
    ? Prisma.sql`${column} = ${values[0]}::${Prisma.raw(type)}`
    : Prisma.sql`${column} = ANY(${values}::${Prisma.raw(type)}[])`;

/** True for PostgreSQL's unique violation, as `sqlTransaction` rethrows it. */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === "23505";

/**
 * A savepoint in the transaction `sql` runs in (raw `pg` or Prisma's): a refusal after it rolls
 * back to it and keeps what came before (POST /purchases keeps its Idempotency-Key's claim so).
 * `name` is a constant of the caller, never a value from a request.
 */
export const takeSavepoint = (sql: Sql, name: string) =>
  sql.$executeRaw`SAVEPOINT ${Prisma.raw(name)}`;

/** Rolls back to `takeSavepoint(sql, name)`: what came after it is undone, the transaction goes on. */
export const rollbackToSavepoint = (sql: Sql, name: string) =>
  sql.$executeRaw`ROLLBACK TO SAVEPOINT ${Prisma.raw(name)}`;
