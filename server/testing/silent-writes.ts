/**
 * Writes with every trigger off, on a connection of their own: no catalogue notification, and
 * updated_at as written. Tests of the search index's catch-up use them to stand for a lost
 * notification (or a row whose clock was read long before it committed).
 */
import pg from "pg";

export const writeSilently = async (statements: [sql: string, values: unknown[]][]) => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query("SET session_replication_role = replica");
    for (const [sql, values] of statements) await client.query(sql, values);
  } finally {
    await client.end();
  }
};
