/**
 * /healthz and /readyz on a real process (server/testing/lifecycle-instance.ts: the front door,
 * the lean API, the sweep and the shutdown as `npm start` wires them) on this file's database and
 * Redis: ready once the index is built; 503 naming the database while PostgreSQL is cut off, the
 * migrations while one is missing, the search index while it builds; no token; nothing leaked.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { databaseProxy } from "../../testing/db-proxy";
import { type InstanceProcess, startInstanceProcess } from "../../testing/instance-process";

const started: InstanceProcess[] = [];
const start = async (env: Record<string, string> = {}) => {
  const instance = await startInstanceProcess("lifecycle-instance.ts", {
    SHUTDOWN_DRAIN_MS: "0",
    ...env,
  });
  started.push(instance);
  return instance;
};
afterAll(() => {
  for (const instance of started) instance.kill();
});

type Readiness = { status: string; checks: Record<string, string> };

const readyz = async (base: string) => {
  const response = await fetch(`${base}/readyz`);
  return { response, body: (await response.json()) as Readiness };
};

/** Asks /readyz until `accept` holds (a probe every 50 ms), or fails after `ms`. */
const readyzUntil = async (base: string, accept: (status: number) => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await readyz(base);
    if (accept(answer.response.status) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The body names checks and states, nothing else: no host, port, version, database name or message. */
const expectNothingLeaked = (text: string) => {
  const database = new URL(process.env.DATABASE_URL!);
  expect(text).not.toContain(database.pathname.slice(1));
  expect(text).not.toContain(database.port);
  expect(text).not.toMatch(/127\.0\.0\.1|localhost|redis:|postgres|version|error|\d+\.\d+/i);
  const body = JSON.parse(text) as Readiness;
  expect(Object.keys(body).sort()).toEqual(["checks", "status"]);
  for (const state of Object.values(body.checks))
    expect(["ok", "unavailable", "pending", "unknown", "building", "draining"]).toContain(state);
};

describe("probes", () => {
  it("a ready instance: /healthz and /readyz answer 200 without a token, not cached, HEAD too, nothing leaked", async () => {
    const instance = await start({ LIFECYCLE_SEARCH_INDEX: "memory" });
    const health = await fetch(`${instance.base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "alive" });
    expect(health.headers.get("cache-control")).toBe("no-store");
    const { response, body } = await readyzUntil(instance.base, (status) => status === 200);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(body).toEqual({
      status: "ready",
      checks: {
        database: "ok",
        migrations: "ok",
        redis: "ok",
        search_index: "ok",
        shutdown: "ok",
      },
    });
    expectNothingLeaked(JSON.stringify(body));
    const head = await fetch(`${instance.base}/readyz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const query = await fetch(`${instance.base}/readyz?full=1`);
    expect(query.status).toBe(200);
    const post = await fetch(`${instance.base}/readyz`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    // The API behind it still asks for its token: the probes opened nothing else.
    expect((await fetch(`${instance.base}/api/v1/me`)).status).toBe(401);
  });

  it("PostgreSQL cut off: /readyz 503 naming the database within two seconds, /healthz still 200; ready again once it answers", async () => {
    const proxy = databaseProxy();
    await proxy.open();
    const instance = await start({ DATABASE_URL: proxy.url() });
    expect((await readyzUntil(instance.base, (status) => status === 200)).response.status).toBe(
      200,
    );
    await proxy.cut();
    const cutAt = Date.now();
    const down = await readyzUntil(instance.base, (status) => status === 503, 5_000);
    expect(Date.now() - cutAt).toBeLessThan(2_000);
    expect(down.response.status).toBe(503);
    expect(down.response.headers.get("retry-after")).toBe("5");
    expect(down.body.status).toBe("not_ready");
    expect(down.body.checks.database).toBe("unavailable");
    expect(down.body.checks.migrations).toBe("ok"); // found applied before: not asked again
    expectNothingLeaked(JSON.stringify(down.body));
    expect((await fetch(`${instance.base}/healthz`)).status).toBe(200);
    await proxy.open();
    const back = await readyzUntil(instance.base, (status) => status === 200, 5_000);
    expect(back.body.checks.database).toBe("ok");
    await proxy.cut();
  });

  it("a configured Redis that never answered: /readyz 503 naming redis (a wrong REDIS_URL stops a rollout)", async () => {
    // Nothing listens on port 1.
    const instance = await start({ REDIS_URL: "redis://127.0.0.1:1" });
    const { response, body } = await readyzUntil(instance.base, (status) => status === 503, 5_000);
    expect(response.status).toBe(503);
    expect(body.checks).toMatchObject({ database: "ok", migrations: "ok", redis: "unavailable" });
    expectNothingLeaked(JSON.stringify(body));
    expect((await fetch(`${instance.base}/healthz`)).status).toBe(200);
  });

  it("a migration not applied: /readyz 503 naming the migrations", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
    try {
      cpSync(path.resolve(__dirname, "../../../prisma/migrations"), dir, { recursive: true });
      mkdirSync(path.join(dir, "29991231000000_not_applied_yet"));
      writeFileSync(path.join(dir, "29991231000000_not_applied_yet", "migration.sql"), "SELECT 1;");
      const instance = await start({ LIFECYCLE_MIGRATIONS_DIR: dir });
      const { response, body } = await readyz(instance.base);
      expect(response.status).toBe(503);
      expect(body.checks).toMatchObject({ database: "ok", migrations: "pending" });
      expect((await fetch(`${instance.base}/healthz`)).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the search index still building: /readyz 503 naming search_index", async () => {
    const proxy = databaseProxy();
    await proxy.open();
    // The build's first read is held back: the index stays building until the process ends.
    const stalled = proxy.stallBefore(/sum\(length\(search_vector\)\)/);
    const instance = await start({ DATABASE_URL: proxy.url(), LIFECYCLE_SEARCH_INDEX: "memory" });
    await stalled;
    const { response, body } = await readyz(instance.base);
    expect(response.status).toBe(503);
    expect(body.checks).toMatchObject({
      database: "ok",
      migrations: "ok",
      search_index: "building",
    });
    instance.kill();
    await instance.exited;
    await proxy.cut();
  });
});
