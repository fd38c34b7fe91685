/**
 * GET /metrics: the Prometheus exposition of server/platform/observability/metrics.ts, served by
 * the front door before the API (no partner token, not rate limited). With METRICS_TOKEN set it
 * asks for `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time; 401 in the shared
 * error shape otherwise); production refuses to start without one (server/platform/env.ts), and a
 * sandbox without one serves it openly.
 * The gauges of work waiting (outbox, webhook backlog, overdue timed transitions) are read from
 * PostgreSQL at scrape time (server/platform/observability/backlog.ts): cluster-wide, the same on
 * every instance, whichever instance did the work.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import client from "prom-client";
import { AppError } from "../../core/errors";
import { searchIndexState } from "../../catalogue";
import { poolUse } from "../../platform/db";
import {
  dueTransitionKinds,
  readBacklog,
  type Backlog,
} from "../../platform/observability/backlog";
import { env } from "../../platform/env";
import { registry, sweepPoolUse } from "../../platform/observability/metrics";
import { send, sendError } from "./node-response";

/** A gauge whose value is read when scraped. */
const scrapeGauge = (
  name: string,
  help: string,
  labelNames: string[],
  collect: (gauge: client.Gauge) => Promise<void> | void,
) =>
  new client.Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await collect(this);
    },
  });

/** NaN when the database did not answer in time: unknown, not 0 (PromQL finds it with `x != x`). */
const fromBacklog = (name: string, help: string, pick: (backlog: Backlog) => number | null) =>
  scrapeGauge(name, help, [], async (gauge) => {
    const backlog = await readBacklog();
    gauge.set(backlog ? (pick(backlog) ?? 0) : Number.NaN);
  });

/** As fromBacklog, one series for emails that are not bulk and one for bulk ones (label `bulk`). */
const fromBacklogByBulk = (
  name: string,
  help: string,
  pick: (backlog: Backlog) => [number | null, number | null],
) =>
  scrapeGauge(name, help, ["bulk"], async (gauge) => {
    const backlog = await readBacklog();
    const values = backlog ? pick(backlog) : [Number.NaN, Number.NaN];
    gauge.set({ bulk: "false" }, values[0] ?? 0);
    gauge.set({ bulk: "true" }, values[1] ?? 0);
  });

/** 0 without an in-memory index (SEARCH_IMPL=postgres, or before its first build). */
const fromSearchIndex = (
  name: string,
  help: string,
  pick: (state: NonNullable<ReturnType<typeof searchIndexState>>) => number,
) =>
  scrapeGauge(name, help, [], (gauge) => {
    const state = searchIndexState();
    if (state) gauge.set(pick(state));
  });

const registerGauges = () => {
  fromBacklog(
    "shopping_webhook_backlog",
    "Webhook deliveries due and not yet delivered (cluster-wide, from the database).",
    (backlog) => backlog.webhook_backlog,
  );
  fromBacklogByBulk(
    "shopping_email_outbox_depth",
    'Emails in the outbox not yet sent, bulk="true" for notifications sent to many at once (sent after the rest), "false" for the rest (cluster-wide, from the database).',
    (backlog) => [backlog.outbox_depth, backlog.outbox_bulk_depth],
  );
  fromBacklogByBulk(
    "shopping_email_outbox_oldest_age_seconds",
    'Age of the oldest email in the outbox not yet sent, bulk="true" for notifications sent to many at once, "false" for the rest; 0 when none waits (cluster-wide, from the database).',
    (backlog) => [backlog.outbox_oldest_age, backlog.outbox_bulk_oldest_age],
  );
  scrapeGauge(
    "shopping_due_transition_oldest_overdue_seconds",
    "How long past its due time the oldest timed transition not yet done is, by kind (purchase_charge, checkout_expiry, watch_expiry, price_change: an unprocessed price change since it was recorded); 0 when none is overdue (cluster-wide, from the database).",
    ["kind"],
    async (gauge) => {
      const backlog = await readBacklog();
      for (const kind of dueTransitionKinds)
        gauge.set({ kind }, backlog ? (backlog[kind] ?? 0) : Number.NaN);
    },
  );
  fromSearchIndex(
    "shopping_search_index_lag_seconds",
    "How long the oldest catalogue change this instance heard of has waited to reach its in-memory index; 0 when none waits, and without an in-memory index (this instance).",
    (state) => state.lagSeconds,
  );
  fromSearchIndex(
    "shopping_search_index_items",
    "Items in this instance's in-memory catalogue index (0 without one: SEARCH_IMPL=postgres, or while the first build runs).",
    (state) => state.items,
  );
  scrapeGauge(
    "shopping_db_pool_connections",
    "This instance's database connections by pool (prisma, raw; the sweep thread's as sweep_prisma, sweep_raw) and state (total open, idle, waiting: callers queued for a connection).",
    ["pool", "state"],
    (gauge) => {
      for (const use of [...poolUse(), ...sweepPoolUse()])
        for (const state of ["total", "idle", "waiting"] as const)
          gauge.set({ pool: use.pool, state }, use[state]);
    },
  );
};

const shared = globalThis as unknown as { shoppingScrapeGauges?: boolean };
if (!shared.shoppingScrapeGauges) {
  shared.shoppingScrapeGauges = true;
  registerGauges();
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** True when the request may read the metrics: no METRICS_TOKEN (sandbox only), or the right bearer token. */
const isAllowed = (request: IncomingMessage) => {
  const token = env().METRICS_TOKEN;
  if (!token) return true;
  const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
  // Digests of equal length, so neither the comparison nor its length check tells how close a guess was.
  return timingSafeEqual(digest(given), digest(token));
};

/** Serves GET /metrics and returns true; false for any other path. */
export const serveMetrics = (
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
): boolean => {
  const path = (request.url ?? "").split("?", 1)[0];
  if (path !== "/metrics") return false;
  void (async () => {
    if (request.method !== "GET" && request.method !== "HEAD")
      return sendError(response, requestId, new AppError("method_not_allowed"), {
        Allow: "GET, HEAD",
      });
    if (!isAllowed(request))
      return sendError(
        response,
        requestId,
        new AppError("unauthorized", {
          message: "GET /metrics needs the METRICS_TOKEN bearer token.",
        }),
        { "WWW-Authenticate": 'Bearer realm="metrics"' },
      );
    const body = await registry.metrics();
    await send(
      new Response(request.method === "HEAD" ? null : body, {
        headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
      }),
      response,
      requestId,
    );
  })().catch(() => response.destroy());
  return true;
};
