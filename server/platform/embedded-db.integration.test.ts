/**
 * The embedded database on its own: real PostgreSQL 18 in a fresh DATA_DIR, notifications delivered,
 * a second start on a served folder refused with the serving pid, and a PostgreSQL left running by a
 * killed `npm start` stopped and replaced on the next start, its data kept.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { runningEmbeddedDatabaseUrl, startEmbeddedDatabase } from "./embedded-db";

// As root, PostgreSQL runs as the postgres user and must pass through the parent; DATA_DIR itself
// does not exist yet (npm start creates it, as it creates .data).
const workDir = mkdtempSync(path.join(tmpdir(), "shopping-embedded-db-"));
chmodSync(workDir, 0o755);
const dataDir = path.join(workDir, ".data");
const quiet = () => undefined;

const withClient = async <T>(url: string, run: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("embedded PostgreSQL", () => {
  it("creates the cluster on first start, delivers notifications, and refuses a second server on the folder", async () => {
    const database = await startEmbeddedDatabase(dataDir, quiet);
    try {
      const version = await withClient(
        database.url,
        async (client) =>
          (await client.query<{ server_version: string }>("SHOW server_version")).rows[0]
            .server_version,
      );
      expect(version).toMatch(/^18\./);
      const payload = await withClient(database.url, async (listener) => {
        await listener.query("LISTEN probe");
        const arrived = new Promise<string>((resolve) =>
          listener.on("notification", (message) => resolve(message.payload ?? "")),
        );
        await withClient(database.url, (sender) =>
          sender.query("SELECT pg_notify('probe', 'hello')"),
        );
        return arrived;
      });
      expect(payload).toBe("hello");
      await withClient(database.url, (client) =>
        client.query("CREATE TABLE kept (id int); INSERT INTO kept VALUES (42)"),
      );
      await expect(startEmbeddedDatabase(dataDir, quiet)).rejects.toThrow(
        `already served by process ${process.pid}`,
      );
    } finally {
      await database.stop();
    }
    expect(runningEmbeddedDatabaseUrl(dataDir)).toBeUndefined();
  }, 60_000);

  it("stops a PostgreSQL a killed run left behind, then starts on the same data", async () => {
    const abandoned = await startEmbeddedDatabase(dataDir, quiet);
    const postmasterPid = Number(
      readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0],
    );
    // What a SIGKILLed npm start leaves: its PostgreSQL still running, the record naming a dead pid.
    writeFileSync(
      path.join(dataDir, "embedded-db.json"),
      JSON.stringify({ url: abandoned.url, pid: 2 ** 22 + 1 }),
    );
    const lines: string[] = [];
    const database = await startEmbeddedDatabase(dataDir, (line) => lines.push(line));
    try {
      expect(lines.join("\n")).toContain(`stopping the PostgreSQL (pid ${postmasterPid})`);
      const rows = await withClient(
        database.url,
        async (client) => (await client.query<{ id: number }>("SELECT id FROM kept")).rows,
      );
      expect(rows).toEqual([{ id: 42 }]);
    } finally {
      await database.stop();
    }
  }, 60_000);
});
