/**
 * Fails when prisma/schema.prisma and prisma/migrations disagree: (1) Prisma's engine finds no
 * change from the snapshot the migrations were written from, and (2) replaying the migrations gives
 * the same tables, columns, indexes and enums as the engine's SQL for that snapshot. CHECK
 * constraints are left out, as triggers are: schema.prisma cannot express them, so migrations add
 * them by hand (the ledger's "net adds up", a fee's range).
 */
import { execFileSync } from "node:child_process";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate } from "../server/edges/ops/migrate";
import { databaseUrl, withAdmin } from "../server/testing/databases";
import { diffSchemas, pendingSchemaSql, snapshotPath } from "./scripts/schema-diff";

const fingerprintSql = `
  SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || udt_name || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
  UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
  UNION ALL SELECT 'enum ' || t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname
  UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND contype <> 'c' AND conrelid::regclass::text <> '_prisma_migrations'
  ORDER BY 1`;

const fingerprint = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ line: string }>(fingerprintSql);
  await client.end();
  return rows.map((row) => row.line);
};

describe("schema and migrations", () => {
  it("schema.prisma has no change the migrations lack", () => {
    expect(pendingSchemaSql()).toBe("");
  });

  it("replaying the migrations builds exactly the snapshot's schema", async () => {
    const suffix = `${process.pid}_${Date.now()}`;
    const [migrated, direct] = [`shopping_drift_m_${suffix}`, `shopping_drift_d_${suffix}`];
    await withAdmin(async (admin) => {
      await admin.query(`CREATE DATABASE "${migrated}"`);
      await admin.query(`CREATE DATABASE "${direct}"`);
    });
    try {
      await migrate(databaseUrl(migrated));
      execFileSync("psql", [
        databaseUrl(direct),
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
        "-c",
        diffSchemas(undefined, snapshotPath),
      ]);
      expect(await fingerprint(databaseUrl(migrated))).toEqual(
        await fingerprint(databaseUrl(direct)),
      );
    } finally {
      await withAdmin(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS "${migrated}" WITH (FORCE)`);
        await admin.query(`DROP DATABASE IF EXISTS "${direct}" WITH (FORCE)`);
      });
    }
  }, 60_000);
});
