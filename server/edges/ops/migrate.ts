/**
 * Applies the SQL migrations in prisma/migrations, in order, each in its own transaction.
 * Records them in Prisma's own `_prisma_migrations` table (same columns and checksum), so
 * `prisma migrate status` reads the same history. Plain `pg` is used so this runs offline, on a
 * PostgreSQL server and on the embedded one alike (Prisma 7's migrate needs a native engine download).
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const migrationsDir = path.join(process.cwd(), "prisma", "migrations");

type Migration = { name: string; sql: string; checksum: string };

/** The migrations in `dir` by name, in the order they apply (what /readyz compares with the ledger). */
export const migrationNames = (dir = migrationsDir): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")),
    )
    .map((entry) => entry.name)
    .sort();

const listMigrations = (dir = migrationsDir): Migration[] =>
  migrationNames(dir).map((name) => {
    const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
    return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
  });

const ledgerSql = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Applies every pending migration; returns the names applied. Refuses an edited applied migration. */
export const migrate = async (databaseUrl: string, dir = migrationsDir): Promise<string[]> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Several instances may start at once: one applies, the others wait and find nothing to do.
    await client.query("SELECT pg_advisory_lock(72707369)");
    await client.query(ledgerSql);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const done: string[] = [];
    for (const migration of listMigrations(dir)) {
      const previous = applied.get(migration.name);
      if (previous && previous !== migration.checksum) {
        throw new Error(
          `Migration ${migration.name} was changed after it was applied; add a new migration instead.`,
        );
      }
      if (previous) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock(72707369)").catch(() => undefined);
    await client.end();
  }
};
