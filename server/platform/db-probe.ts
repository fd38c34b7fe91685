/**
 * The readiness probe's own PostgreSQL connection (server/edges/http/probes.ts): one connection,
 * opened on demand and dropped on any failure, every call bounded by `timeoutMs`. Not the pools': a
 * pool busy with requests must not make a working instance look unready, nor a probe wait for it.
 */
import pg from "pg";
import { withTimeout } from "./with-timeout";

export const createDatabaseProbe = (options: { databaseUrl: string; timeoutMs: number }) => {
  const { timeoutMs } = options;
  let client: pg.Client | undefined;
  const drop = () => {
    const dropped = client;
    client = undefined;
    void dropped?.end().catch(() => undefined);
  };
  const query = async <Row extends pg.QueryResultRow>(text: string) => {
    try {
      if (!client) {
        const opening = new pg.Client({
          connectionString: options.databaseUrl,
          connectionTimeoutMillis: timeoutMs,
          application_name: "readiness-probe",
        });
        opening.on("error", () => client === opening && drop());
        client = opening;
        await withTimeout(opening.connect(), timeoutMs);
      }
      return (await withTimeout(client.query<Row>(text), timeoutMs)).rows;
    } catch (error) {
      drop();
      throw error;
    }
  };
  return {
    /** True when the database answers `SELECT 1` in time. */
    answers: () =>
      query("SELECT 1").then(
        () => true,
        () => false,
      ),
    /** The migrations recorded as applied (finished, not rolled back); undefined before the ledger exists or when the database does not answer. */
    appliedMigrations: () =>
      query<{ name: string }>(
        `SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      ).then(
        (rows) => new Set(rows.map((row) => row.name)),
        () => undefined,
      ),
    close: drop,
  };
};
