/**
 * Runs before each test file: gives it a fresh database copied from the migrated template and
 * points DATABASE_URL at it before any server module reads the environment.
 */
import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { databaseUrl, serverUrl, withAdmin } from "./databases";

// Keep the server's address: a test may point DATABASE_URL elsewhere (e.g. through a proxy).
process.env.TEST_DATABASE_SERVER_URL ??= serverUrl();
const template = inject("templateDatabase");
const name = `${template}_${randomBytes(4).toString("hex")}`;
await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
process.env.DATABASE_URL = databaseUrl(name);
process.env.RATE_LIMIT_PREFIX = `test:${name}`;
process.env.PUBLIC_URL ??= "http://localhost:3000";

afterAll(async () => {
  // The partner calls the file's requests noted are dropped with the database: the call log's timer
  // would write them 5 s later to a database gone (or through a connection a test cut), and log it.
  const { discardQueuedCalls } = await import("../edges/rest/call-log");
  discardQueuedCalls();
  const { db } = await import("../platform/db");
  await db()
    .$disconnect()
    .catch(() => undefined);
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});
