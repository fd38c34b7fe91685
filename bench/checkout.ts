/**
 * `npm run bench -- quote` and `-- checkout`: POST /api/v1/checkout/quotes and /checkout/sessions.
 * If the service does not route them (a 404 from the catch-all), the harness says "endpoint not
 * available yet" and exits 0. Quotes price 1 to 3 listed items;
 * checkouts each use a quote made beforehand for items no other checkout holds.
 */
import pg from "pg";
import { storeCanSellSql } from "../server/core/store-can-sell";
import { checkoutRequest, quoteBody } from "./lib/checkout-bodies";
import { ensureCatalogDatabase } from "./lib/database";
import { runPhase } from "./lib/load";
import { machine } from "./lib/machine";
import { createPartners, tokenRotation } from "./lib/partners";
import { printTable, writeResult } from "./lib/report";
import { sampleRss } from "./lib/rss";
import { startService } from "./lib/service";

const quotesPath = "/api/v1/checkout/quotes";
const sessionsPath = "/api/v1/checkout/sessions";

const listedItemIds = async (databaseUrl: string, count: number) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number }>(
      `SELECT i.id FROM items i JOIN stores s ON s.id = i.store_id
       WHERE i.status = 'active' AND ${storeCanSellSql("s")}
         AND (SELECT count(*) FROM variants v WHERE v.item_id = i.id) = 1
       ORDER BY i.id DESC LIMIT $1`,
      [count],
    );
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
};

type Post = (
  path: string,
  body: string,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: string }>;

/** True when the service routes POST `path`: anything but the catch-all's "No endpoint" 404 (no token needed to tell). */
const isRouted = async (baseUrl: string, path: string) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  const body = await response.text();
  return !(response.status === 404 && body.includes("No endpoint"));
};

/** Runs the quote or checkout benchmark; exits cleanly when the endpoint does not exist yet. */
export const benchCheckout = async (options: {
  kind: "quote" | "checkout";
  items: number;
  seconds: number;
}) => {
  const log = (line: string) => console.log(line);
  const database = await ensureCatalogDatabase(options.items, log);
  const service = await startService({ databaseUrl: database.url, searchImpl: "memory", log });
  const rss = sampleRss(service.pid);
  try {
    const needed = options.kind === "quote" ? [quotesPath] : [quotesPath, sessionsPath];
    for (const path of needed) {
      if (!(await isRouted(service.baseUrl, path))) {
        console.log(`${options.kind}: endpoint not available yet (POST ${path} answers 404)`);
        return;
      }
    }
    const partners = await createPartners({
      baseUrl: service.baseUrl,
      databaseUrl: database.url,
      count: 600,
    });
    const authorization = tokenRotation(partners);
    const post: Post = async (path, body, headers = {}) => {
      const response = await fetch(`${service.baseUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: authorization(), ...headers },
        body,
      });
      return { status: response.status, body: await response.text() };
    };
    const items = await listedItemIds(database.url, 20_000);
    const probe = await post(quotesPath, quoteBody(items.slice(0, 1)));
    if (probe.status >= 300)
      console.log(
        `a probe quote answered ${probe.status}: ${probe.body.slice(0, 500)} (bench/lib/checkout-bodies.ts may need the endpoint's field names)`,
      );
    let phase;
    if (options.kind === "quote") {
      let next = 0;
      const request = () => {
        const count = 1 + (next % 3);
        const chosen = Array.from(
          { length: count },
          (_, i) => items[(next * 3 + i) % items.length],
        );
        next++;
        return {
          path: quotesPath,
          headers: { "content-type": "application/json", authorization: authorization() },
          body: quoteBody(chosen),
        };
      };
      phase = await runPhase({
        baseUrl: service.baseUrl,
        method: "POST",
        connections: 16,
        durationSeconds: options.seconds,
        next: request,
      });
    } else {
      log("checkout: making one quote per checkout first");
      const quoteIds: string[] = [];
      for (const id of items.slice(0, 2000)) {
        const answer = await post(quotesPath, quoteBody([id]));
        if (answer.status < 300)
          quoteIds.push((JSON.parse(answer.body) as { quote_id: string }).quote_id);
      }
      if (!quoteIds.length) throw new Error("no quote could be made for the checkout benchmark");
      let next = 0;
      const request = () => {
        const { body, headers } = checkoutRequest(quoteIds[next++ % quoteIds.length]);
        return {
          path: sessionsPath,
          headers: {
            ...headers,
            "content-type": "application/json",
            authorization: authorization(),
          },
          body,
        };
      };
      phase = await runPhase({
        baseUrl: service.baseUrl,
        method: "POST",
        connections: 8,
        durationSeconds: Math.min(options.seconds, 10),
        next: request,
      });
    }
    const memory = rss.stop();
    printTable(`${options.kind} creation, ms`, [
      {
        "req/s": phase.requestsPerSecond,
        p50: phase.p50,
        p95: phase.p95,
        p99: phase.p99,
        errors: phase.errors,
        statuses: JSON.stringify(phase.statuses),
      },
    ]);
    const record = {
      name: options.kind,
      measuredAt: new Date().toISOString(),
      machine: machine(),
      database: database.name,
      phase,
      rssMb: memory,
    };
    console.log(`\nwrote ${writeResult(options.kind, record)}`);
  } finally {
    rss.stop();
    await service.stop();
  }
};
