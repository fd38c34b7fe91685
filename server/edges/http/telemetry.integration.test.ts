/**
 * Issue 28, section 3: the request log line and GET /metrics through the real front door and lean
 * API (server/testing/mcp-server.ts), on this file's database; the sweep thread's counts reaching the
 * main thread's registry through the real sweep thread.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, rawPool } from "../../platform/db";
import { enqueueEmail } from "../../platform/mail/outbox";
import { agentWithPerson, buy, directItem, quoteOf } from "../../testing/agent-purchases";
import { captureLogLines } from "../../testing/log-capture";
import { startConnectorServer } from "../../testing/mcp-server";
import { useEnv } from "../../testing/use-env";
import { startSweepThread } from "../jobs/sweep-thread";
import { setItemPrice } from "../../catalogue/set-item-price";
import { useIndexHost } from "../../catalogue/search";
import { CatalogSync } from "../../catalogue/search/memory/catalog-sync";
import { processPriceChanges } from "../../price-changes/process-price-changes";
import { createBuyer, setWatch, watchableItem } from "../../testing/watch-fixtures";
import { inThisThread } from "../../catalogue/search/memory/index-host";
import { sampleValue } from "../../testing/metrics-exposition";

const metricsToken = `metrics-${randomUUID()}-${randomUUID()}`;

let server: Awaited<ReturnType<typeof startConnectorServer>>;
beforeAll(async () => {
  server = await startConnectorServer();
}, 60_000);
afterAll(() => server?.stop());

const scrape = async (token: string | null = metricsToken) => {
  const response = await fetch(`${server.base}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { response, text: await response.text() };
};

describe("GET /metrics", () => {
  it("in a sandbox without METRICS_TOKEN: open", async () => {
    const { response, text } = await scrape(null);
    expect(response.status).toBe(200);
    expect(text).toContain("# TYPE shopping_http_requests_total counter");
  });

  it("with METRICS_TOKEN set: 401 in the shared error shape without it or with a wrong one; the exposition with it", async () => {
    useEnv({ METRICS_TOKEN: metricsToken });
    await db().$queryRaw`SELECT 1`;
    const missing = await scrape(null);
    expect(missing.response.status).toBe(401);
    expect(JSON.parse(missing.text).error.code).toBe("unauthorized");
    expect(missing.response.headers.get("x-request-id")).toBeTruthy();
    const wrong = await scrape(`${metricsToken}x`);
    expect(wrong.response.status).toBe(401);
    expect(wrong.text).not.toContain("shopping_");
    const ok = await scrape();
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      "shopping_http_requests_total",
      "shopping_http_request_duration_seconds",
      "shopping_email_outbox_depth",
      "shopping_email_outbox_oldest_age_seconds",
      "shopping_webhook_backlog",
      "shopping_due_transition_oldest_overdue_seconds",
      "shopping_db_pool_connections",
      "process_cpu_user_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(ok.text).toContain(`# TYPE ${name} `);
    expect(ok.text).toContain(
      'shopping_due_transition_oldest_overdue_seconds{kind="purchase_charge"}',
    );
    expect(ok.text).toMatch(/shopping_db_pool_connections\{pool="prisma",state="total"\} \d+/);
  });

  it("counts an /api/v1 operation's requests by status, with its latency histogram, and writes one line per request without secrets", async () => {
    useEnv({ METRICS_TOKEN: metricsToken });
    const { token, agent, person } = await agentWithPerson();
    const logs = captureLogLines();
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${server.base}/api/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    const first = await call("/me/shipping-address?token=query-secret-value");
    expect(first.status).toBe(200);
    const line = await logs.find(
      (candidate) => candidate.request_id === first.headers.get("x-request-id"),
    );
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      path: "/api/v1/me/shipping-address",
      status: 200,
      client_id: agent.id,
      person_id: person.id,
    });
    expect(line?.duration_ms).toEqual(expect.any(Number));
    const operation = String(line?.operation);
    expect(operation).not.toMatch(/^(other|page)$/);

    const before = (await scrape()).text;
    const counted = `{operation="${operation}",method="GET",status="200"}`;
    for (let index = 0; index < 3; index++)
      expect((await call("/me/shipping-address")).status).toBe(200);
    // A refusal: a body with a card number, to a route that does not read it, and a wrong token.
    const refused = await fetch(`${server.base}/api/v1/me/shipping-address`, {
      headers: { authorization: "Bearer not-a-real-token-value" },
    });
    expect(refused.status).toBe(401);
    const posted = await call("/checkout/quotes", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ card_number: "4242424242424242", marker: "body-secret-marker" }),
    });
    expect(posted.status).toBe(422);
    const refusedLine = await logs.find(
      (candidate) => candidate.request_id === refused.headers.get("x-request-id"),
    );
    expect(refusedLine).toMatchObject({ level: "info", status: 401 });
    expect(refusedLine?.err).toBeUndefined();
    await logs.find((candidate) => candidate.request_id === posted.headers.get("x-request-id"));
    // Every line is written by the time the last one is; then the counters have moved too.
    const after = (await scrape()).text;
    expect(sampleValue(after, "shopping_http_requests_total", counted)).toBe(
      sampleValue(before, "shopping_http_requests_total", counted) + 3,
    );
    const histogram = `{operation="${operation}"}`;
    // The three answered and the one refused.
    expect(sampleValue(after, "shopping_http_request_duration_seconds_count", histogram)).toBe(
      sampleValue(before, "shopping_http_request_duration_seconds_count", histogram) + 4,
    );
    expect(after).toMatch(
      new RegExp(
        `shopping_http_request_duration_seconds_bucket\\{le="0.25",operation="${operation}"\\} \\d+`,
      ),
    );
    expect(after).toContain(
      `shopping_http_requests_total{operation="${operation}",method="GET",status="401"}`,
    );
    expect(after).toContain(
      'shopping_http_requests_total{operation="metrics",method="GET",status="200"}',
    );

    const written = logs.text();
    expect(written).not.toContain(token);
    expect(written).not.toContain("not-a-real-token-value");
    expect(written).not.toContain("query-secret-value");
    expect(written).not.toContain("4242424242424242");
    expect(written).not.toContain("body-secret-marker");
    expect(written).not.toMatch(/authorization/i);
    expect(written).not.toContain(metricsToken);
    // No refusal logged a stack.
    expect(logs.lines.filter((candidate) => candidate.err !== undefined)).toEqual([]);
  });

  it("moves shopping_purchases_total when a purchase is held", async () => {
    useEnv({ METRICS_TOKEN: metricsToken });
    const { token } = await agentWithPerson();
    const before = (await scrape()).text;
    const made = await buy(token, (await quoteOf(token, [(await directItem()).id])).quote_id);
    expect(made.status).toBe(201);
    const after = (await scrape()).text;
    for (const outcome of ["processing", "held"])
      expect(sampleValue(after, "shopping_purchases_total", `{outcome="${outcome}"}`)).toBe(
        sampleValue(before, "shopping_purchases_total", `{outcome="${outcome}"}`) + 1,
      );
  });

  it("reads the outbox depth and age from the database (cluster-wide), refreshed every 2 s, bulk notifications apart", async () => {
    useEnv({ METRICS_TOKEN: metricsToken });
    for (let index = 0; index < 3; index++)
      await enqueueEmail(db(), {
        to: `outbox-${index}@example.ca`,
        template: "verify-email",
        props: {},
      });
    await enqueueEmail(db(), { to: "outbox-bulk@example.ca", template: "price-alert", props: {} });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const { rows } = await rawPool().query<{ bulk: boolean; pending: number }>(
      "SELECT bulk, count(*)::int AS pending FROM email_messages WHERE status = 'pending' GROUP BY bulk",
    );
    const pending = (bulk: boolean) => rows.find((row) => row.bulk === bulk)?.pending ?? 0;
    expect(pending(false)).toBeGreaterThanOrEqual(3);
    expect(pending(true)).toBeGreaterThanOrEqual(1);
    const { text } = await scrape();
    for (const bulk of [false, true]) {
      const labels = `{bulk="${bulk}"}`;
      expect(sampleValue(text, "shopping_email_outbox_depth", labels)).toBe(pending(bulk));
      expect(sampleValue(text, "shopping_email_outbox_oldest_age_seconds", labels)).toBeGreaterThan(
        2,
      );
    }
  });
});

describe("domain metrics", () => {
  it("counts a price watch's evaluation by outcome, and the lag from the price change", async () => {
    const buyer = await createBuyer();
    const item = await watchableItem(10_000);
    const set = await setWatch(buyer.token, {
      catalog_item_id: String(item.id),
      max_price: 80,
      max_total: 100,
    });
    expect(set.status).toBe(201);
    const bought = '{outcome="bought"}';
    const before = (await scrape()).text;
    await setItemPrice(db(), { itemId: item.id, priceCents: 7_500 }, { now: new Date() });
    await processPriceChanges(db(), { now: () => new Date() });
    const after = (await scrape()).text;
    expect(sampleValue(after, "shopping_watch_evaluations_total", bought)).toBe(
      sampleValue(before, "shopping_watch_evaluations_total", bought) + 1,
    );
    expect(sampleValue(after, "shopping_watch_evaluation_lag_seconds_count")).toBeGreaterThan(
      sampleValue(before, "shopping_watch_evaluation_lag_seconds_count"),
    );
  });

  it("shows this instance's in-memory search index: its items, its rebuilds, and no lag once changes are applied", async () => {
    const before = (await scrape()).text;
    const sync = new CatalogSync({ databaseUrl: process.env.DATABASE_URL! });
    useIndexHost(inThisThread(sync));
    try {
      await sync.start();
      const { text } = await scrape();
      expect(sampleValue(text, "shopping_search_index_rebuilds_total")).toBe(
        sampleValue(before, "shopping_search_index_rebuilds_total") + 1,
      );
      expect(sampleValue(text, "shopping_search_index_items")).toBe(await db().item.count());
      expect(sampleValue(text, "shopping_search_index_lag_seconds")).toBe(0);
      // A change heard and applied leaves no lag behind.
      const item = await watchableItem(10_000);
      await setItemPrice(db(), { itemId: item.id, priceCents: 9_000 }, { now: new Date() });
      // A notification of a kind the index does not use queues nothing, so it is no lag either.
      await db().$executeRaw`SELECT pg_notify('catalog_changes', 'unknown:1')`;
      await sync.settledAfterCommits();
      const applied = (await scrape()).text;
      expect(sync.stats.notifications).toBeGreaterThan(0);
      expect(sampleValue(applied, "shopping_search_index_lag_seconds")).toBe(0);
      expect(sampleValue(applied, "shopping_search_index_items")).toBe(await db().item.count());
    } finally {
      useIndexHost(undefined);
      await sync.stop();
    }
  });
});

describe("the sweep thread's metrics", () => {
  it("reach the main thread's registry: job runs counted on the worker thread are served by /metrics", async () => {
    useEnv({ METRICS_TOKEN: metricsToken });
    const job = '{job="deliver-webhooks",result="ok"}';
    const before = sampleValue((await scrape()).text, "shopping_job_runs_total", job);
    const sweep = startSweepThread(() => undefined);
    try {
      // deliver-webhooks runs every 200 ms; the thread posts its deltas every second.
      let after = before;
      for (let tries = 0; tries < 60 && after <= before; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        after = sampleValue((await scrape()).text, "shopping_job_runs_total", job);
      }
      expect(after).toBeGreaterThan(before);
      const { text } = await scrape();
      expect(text).toMatch(/shopping_job_run_duration_seconds_count\{job="deliver-webhooks"\} \d+/);
      expect(text).toMatch(/shopping_db_pool_connections\{pool="sweep_prisma",state="total"\} \d+/);
    } finally {
      await sweep.stop();
    }
  }, 30_000);
});
