/**
 * Test databases on a real PostgreSQL server: the one DATABASE_URL names when set, else the local
 * one. A template is migrated once per run from the real migrations; each test file gets its own
 * copy, so files run in parallel without seeing each other's rows. Non-local servers are refused.
 */
import pg from "pg";

export const serverUrl = () =>
  process.env.TEST_DATABASE_SERVER_URL ??
  process.env.DATABASE_URL ??
  "postgresql://postgres@127.0.0.1:5432/postgres";

export const assertLocal = (url: string) => {
  const parsed = new URL(url);
  const host = parsed.hostname || new URLSearchParams(parsed.search).get("host") || "";
  if (!["127.0.0.1", "localhost", "::1", "[::1]", ""].includes(host) && !host.startsWith("/")) {
    throw new Error(`Tests refuse a non-local database server (${host}).`);
  }
};

export const databaseUrl = (name: string) => {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
};

export const withAdmin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
  assertLocal(serverUrl());
  const client = new pg.Client({ connectionString: databaseUrl("postgres") });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};
