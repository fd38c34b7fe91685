/**
 * `npm run bench:charts` (`npx tsx bench/charts.ts`): reads bench/results/*.json and writes one SVG
 * per benchmark to bench/results/<benchmark>.svg (search, token, mcp, purchase, watches, webhooks,
 * embedded, soak, catalog-load, checkout when a run wrote quote.json or checkout.json, and
 * checkout-quote from the figures docs/performance.md records, since bench/checkout-quote.ts only
 * prints). Bars are p50/p95/p99 latencies, throughput and counts; a dark tick marks the target
 * where one exists. Hand-written SVG, no dependency; the output depends only on the JSON, so a
 * re-run without new results changes nothing. docs/performance.md embeds the files.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A bar; `target` is an upper bound unless `goal` says it is a floor ("min") or an exact count. */
type Bar = {
  key: string;
  value: number;
  color: string;
  target?: number;
  goal?: "max" | "min" | "exact";
  note?: string;
};
type Row = { label: string; bars: Bar[] };
type Panel = { title: string; unit: string; rows: Row[] };
type Chart = { title: string; lines: string[]; panels: Panel[] };
/** A result file as written by bench/lib/report.ts; each benchmark reads the fields it wrote. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
type Result = { file: string; data: Json };

const resultsDir = path.resolve(__dirname, "results");
const colors = { p50: "#4c78a8", p95: "#f58518", p99: "#e45756", max: "#9d755d" };
const green = "#54a24b";
const teal = "#72b7b2";

const fmt = (n: number) =>
  new Intl.NumberFormat("en-US", { maximumFractionDigits: n < 10 ? 2 : n < 100 ? 1 : 0 }).format(n);
const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const day = (data: Json) =>
  data.measuredAt ? String(data.measuredAt).slice(0, 10) : "date not recorded";
const machineLine = (data: Json) => {
  const m = data.machine;
  if (!m) return `measured ${day(data)}`;
  return `measured ${day(data)}; ${m.nproc} cores ${m.cpu}, ${m.ramGiB} GiB, Node ${m.node}, load average ${m.loadAverage.join(" / ")} at the end`;
};

/** p50/p95/p99 (or max) bars of a load phase, with optional targets per percentile. */
const latency = (phase: Json, targets: Partial<Record<"p50" | "p95" | "p99", number>> = {}) =>
  (["p50", "p95", "p99"] as const).map((key) => ({
    key,
    value: phase[key],
    color: colors[key],
    target: targets[key],
  }));
const one = (key: string, value: number, target?: number, goal?: Bar["goal"]): Bar => ({
  key,
  value,
  color: green,
  target,
  goal,
});

const searchTargets: Record<number, { latency: Json; deep: number; mix: number; rss: number }> = {
  100000: { latency: { p50: 12, p95: 40, p99: 80 }, deep: 10, mix: 250, rss: 350 },
  1000000: { latency: { p50: 25, p95: 100, p99: 200 }, deep: 20, mix: 80, rss: 450 },
};

const searchChart = (results: Result[]): Chart => {
  const rows = results.flatMap(({ file, data }) =>
    data.results.map((result: Json) => ({
      label: `${data.items >= 1e6 ? `${data.items / 1e6}M` : `${data.items / 1e3}k`} ${result.impl}${file.includes("next-only") ? ", Next only" : ""}, ${day(data)}`,
      targets: searchTargets[data.items] ?? searchTargets[100000],
      result,
    })),
  );
  const panel = (title: string, unit: string, bars: (r: (typeof rows)[number]) => Bar[]) => ({
    title,
    unit,
    rows: rows.map((r) => ({ label: r.label, bars: bars(r) })),
  });
  return {
    title: "Search (npm run bench -- search)",
    lines: results.map(({ file, data }) => `${file}: ${machineLine(data)}`),
    panels: [
      panel("Search mix, open loop at half the closed-loop rate", "ms", (r) =>
        latency(r.result.latency, r.targets.latency),
      ),
      panel("Deep page 2000 x 48", "ms", (r) =>
        latency(r.result.deepPage, { p95: r.targets.deep }),
      ),
      panel("Throughput, uncached mix (32 connections) and hot URL (50)", "req/s", (r) => [
        one("mix", r.result.throughput.requestsPerSecond, r.targets.mix, "min"),
        { ...one("hot URL", r.result.hotQuery.requestsPerSecond, 900, "min"), color: teal },
      ]),
      panel("Freshness: sold item gone / price change visible, max of 5", "ms", (r) => [
        one("sold", r.result.freshness.soldMaxMs, 1000),
        { ...one("price", r.result.freshness.priceMaxMs, 1000), color: teal },
      ]),
      panel("Service RSS peak under load", "MB", (r) => [
        one("peak", r.result.rssMb.peak, r.targets.rss),
      ]),
      panel("Index build at start", "s", (r) => [one("build", r.result.indexBuildMs / 1000)]),
    ],
  };
};

const tokenChart = (results: Result[]): Chart => ({
  title: "Token endpoint, client_credentials (npm run bench -- token)",
  lines: results.map(({ file, data }) => `${file}: ${machineLine(data)}`),
  panels: results.flatMap(({ file, data }) => {
    const label = file.includes("next-only") ? "through Next only" : "lean API layer";
    return [
      {
        title: `Open loop at 500 req/s (bench/token.ts), ${fmt(data.latency.requestsPerSecond)} answered a second, ${label}`,
        unit: "ms",
        rows: [{ label: "POST /oauth/token", bars: latency(data.latency, { p50: 3, p95: 15 }) }],
      },
      {
        title: `Throughput at 32 connections, ${label}`,
        unit: "req/s",
        rows: [
          {
            label: "POST /oauth/token",
            bars: [one("req/s", data.throughput.requestsPerSecond, 800, "min")],
          },
        ],
      },
    ];
  }),
});

const mcpChart = ([{ file, data }]: Result[]): Chart => {
  const [rest, mcp] = data.table;
  const asPhase = (row: Json) => ({ p50: row["p50 ms"], p95: row["p95 ms"], p99: row["p99 ms"] });
  return {
    title: "MCP search_products vs REST GET /api/v1/products (npm run bench -- mcp)",
    lines: [
      `${file}: ${machineLine(data)}`,
      `${fmt(data.items)} items, open loop ${data.rate} req/s; target: MCP p95 within 5 ms of REST (gap ${fmt(data.p95GapMs)} ms); ${data.mismatches} answers differing`,
    ],
    panels: [
      {
        title: `Mean of ${data.phases.length / 2} rounds`,
        unit: "ms",
        rows: [
          { label: rest.edge, bars: latency(asPhase(rest)) },
          { label: mcp.edge, bars: latency(asPhase(mcp), { p95: rest["p95 ms"] + 5 }) },
        ],
      },
      {
        title: "Each round",
        unit: "ms",
        rows: data.phases.map((phase: Json, index: number) => ({
          label: `round ${Math.floor(index / 2) + 1}, ${phase.edge}`,
          bars: latency(phase.result),
        })),
      },
    ],
  };
};

const purchaseChart = ([{ file, data }]: Result[]): Chart => ({
  title: "Assistant purchase POST /purchases (npm run bench -- purchase)",
  lines: [`${file}: ${machineLine(data)}`, `sandbox processor, ${data.seconds} s per phase`],
  panels: [
    {
      title: `Open loop at ${data.rate} req/s`,
      unit: "ms",
      rows: [
        { label: "POST /purchases", bars: latency(data.latency, { p50: 25, p95: 60 }) },
        { label: "POST /checkout/quotes (reference)", bars: latency(data.reference) },
      ],
    },
    {
      title: "CPU per request: service / PostgreSQL",
      unit: "ms",
      rows: [
        ["POST /purchases", data.latency.cpu],
        ["POST /checkout/quotes", data.reference.cpu],
      ].map(([label, cpu]) => ({
        label,
        bars: [one("service", cpu.serviceMs), { ...one("postgres", cpu.postgresMs), color: teal }],
      })),
    },
    {
      title: `Race: ${data.race.purchases} purchases of ${data.race.items} quantity-one items, ${data.race.connections} connections`,
      unit: "items",
      rows: [
        {
          label: "items with exactly one hold",
          bars: [one("items", data.race.exactlyOneHold, data.race.items, "exact")],
        },
      ],
    },
  ],
});

const watchesChart = ([{ file, data }]: Result[]): Chart => ({
  title: "Price watches under a sale (npm run bench -- watches)",
  lines: [
    `${file}: ${machineLine(data)}`,
    `${fmt(data.live.watches)} live watches and ${fmt(data.live.alerts)} alerts on ${fmt(data.items)} items; ${fmt(data.qualifying)} qualifying watches`,
  ],
  panels: [
    {
      title: "All qualifying watches bought, declined or ended",
      unit: "s",
      rows: [{ label: "sale settled", bars: [one("settled", data.settledMs / 1000, 60)] }],
    },
    {
      title: `Search mix at ${data.searchRate} req/s, open loop (target: p95 <= 1.10 x without)`,
      unit: "ms",
      rows: [
        { label: "no watches", bars: latency(data.without) },
        {
          label: "100,000 live watches and alerts",
          bars: latency(data.withWatches, { p95: Math.round(data.without.p95 * 110) / 100 }),
        },
      ],
    },
    {
      title: "Outcomes of the qualifying watches",
      unit: "watches",
      rows: data.outcomes.map((o: Json) => ({ label: o.status, bars: [one("watches", o.count)] })),
    },
    {
      title: "Alerts reached, notified and emailed (one email each)",
      unit: "alerts",
      rows: [
        {
          label: "alerts",
          bars: [
            one("reached", data.alerts.qualifying),
            {
              ...one("notified", data.alerts.notified, data.alerts.qualifying, "exact"),
              color: teal,
            },
            {
              ...one("emails", data.alerts.distinct_emails, data.alerts.qualifying, "exact"),
              color: teal,
            },
          ],
        },
      ],
    },
  ],
});

const webhooksChart = ([{ file, data }]: Result[]): Chart => ({
  title: "Webhooks fan-out (npm run bench -- webhooks)",
  lines: [
    `${file}: measured ${day(data)}`,
    `${fmt(data.checkouts)} paid checkouts, ${data.clients} clients, ${data.endpointsPerClient} endpoints each; burst paid in ${fmt(data.burstSeconds)} s`,
  ],
  panels: [
    {
      title: "Delay from the change to the receiver's 200",
      unit: "ms",
      rows: [
        {
          label: "checkout.paid",
          bars: [
            { key: "p50", value: data.delayMs.p50, color: colors.p50 },
            { key: "p95", value: data.delayMs.p95, color: colors.p95, target: 2000 },
            { key: "max", value: data.delayMs.max, color: colors.max },
          ],
        },
      ],
    },
    {
      title: "Deliveries (targets: 0 lost, 0 duplicated)",
      unit: "deliveries",
      rows: [
        {
          label: "webhook-ids",
          bars: [
            one("received", data.received, data.expected, "exact"),
            { ...one("lost", data.lost, 0, "exact"), color: colors.p99 },
            { ...one("duplicated", data.duplicates, 0, "exact"), color: colors.p99 },
          ],
        },
      ],
    },
  ],
});

const embeddedChart = ([{ file, data }]: Result[]): Chart => {
  const sides = data.results.map((r: Json) => ({
    label: r.side === "embedded" ? "embedded default" : "configured servers",
    r,
  }));
  return {
    title: "Embedded default vs configured servers (npm run bench -- embedded)",
    lines: [`${file}: ${machineLine(data)}`, `${fmt(data.items)} items, search mix, uncached`],
    panels: [
      {
        title: `Open loop at ${data.rate} req/s`,
        unit: "ms",
        rows: sides.map((s: Json) => ({ label: s.label, bars: latency(s.r.latency) })),
      },
      {
        title: "Throughput at 32 connections",
        unit: "req/s",
        rows: sides.map((s: Json) => ({
          label: s.label,
          bars: [one("req/s", s.r.throughput.requestsPerSecond)],
        })),
      },
      {
        title: "First start to serving",
        unit: "s",
        rows: sides.map((s: Json) => ({ label: s.label, bars: [one("ready", s.r.readySeconds)] })),
      },
    ],
  };
};

const soakChart = (results: Result[]): Chart => ({
  title: "Soak (npm run bench -- soak)",
  lines: results.map(
    ({ file, data }) =>
      `${file}: ${data.minutes} minutes at ${data.rate} req/s, ${fmt(data.requests)} requests, ${data.skipped} skipped; 5xx ${data.serverErrors}, double holds ${data.doubleHolds}, watch purchases wrong ${data.watchPurchasesWrong}`,
  ),
  panels: results.flatMap(({ data }) => [
    {
      title: `${data.minutes} minutes: service RSS (target: growth under 10%)`,
      unit: "MB",
      rows: [
        {
          label: "RSS",
          bars: [
            one("minute 1", data.rssMinute1Mb),
            {
              ...one("end", data.rssEndMb, Math.round(data.rssMinute1Mb * 1.1)),
              color: teal,
              note: `+${data.rssGrowthPercent}%`,
            },
          ],
        },
      ],
    },
    {
      title: `${data.minutes} minutes: answers by kind`,
      unit: "requests",
      rows: Object.entries(data.statuses as Record<string, number>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([label, count]) => ({ label, bars: [one("n", count)] })),
    },
  ]),
});

const catalogLoadChart = (results: Result[]): Chart => ({
  title: "Catalogue load with the generator (npm run bench -- load)",
  lines: results.map(({ file, data }) => `${file}: ${machineLine(data)}`),
  panels: [
    {
      title: "Time to load (target for 1M items: 5 minutes)",
      unit: "s",
      rows: [...results]
        .sort((a, b) => a.data.items - b.data.items)
        .map(({ data }) => ({
          label: `${fmt(data.items)} items, ${fmt(data.stores)} stores`,
          bars: [one("load", data.seconds, data.items === 1_000_000 ? 300 : undefined)],
        })),
    },
  ],
});

const checkoutChart = (results: Result[]): Chart => ({
  title: "Quotes and checkouts over HTTP (npm run bench -- quote | checkout)",
  lines: results.map(({ file, data }) => `${file}: ${machineLine(data)}`),
  panels: results.flatMap(({ data }) => [
    {
      title: `POST /checkout/${data.name === "quote" ? "quotes" : "sessions"}, closed loop`,
      unit: "ms",
      rows: [{ label: data.name, bars: latency(data.phase) }],
    },
    {
      title: `POST /checkout/${data.name === "quote" ? "quotes" : "sessions"}, throughput`,
      unit: "req/s",
      rows: [{ label: data.name, bars: [one("req/s", data.phase.requestsPerSecond)] }],
    },
  ]),
});

/** bench/checkout-quote.ts prints and writes no JSON: its recorded run (issue 5, docs/performance.md). */
const checkoutQuoteChart = (): Chart => ({
  title: "Quote and checkout creation, route handlers in-process (bench/checkout-quote.ts)",
  lines: [
    "figures recorded in docs/performance.md (the script prints them; it writes no JSON)",
    "shared 2-core box at load average 3 to 6; Next excluded",
  ],
  panels: [
    {
      title: "Sequential requests",
      unit: "ms",
      rows: [
        {
          label: "POST /checkout/quotes (3 items, 2 stores)",
          bars: latency({ p50: 10.8, p95: 18.4 }, { p50: 8, p95: 20 }).slice(0, 2),
        },
        {
          label: "POST /checkout/sessions (reserve 3)",
          bars: latency({ p50: 18.2, p95: 29.4 }).slice(0, 2),
        },
      ],
    },
  ],
});

/** Horizontal bars, one scale per panel; a dark tick at a bar's target. */
const render = (chart: Chart) => {
  const width = 900;
  const [labelX, keyX, barX, barMax] = [16, 350, 360, 330];
  const out: string[] = [];
  let y = 28;
  out.push(
    `<text x="${labelX}" y="${y}" font-size="16" font-weight="bold">${escape(chart.title)}</text>`,
  );
  for (const line of chart.lines) {
    y += 16;
    out.push(`<text x="${labelX}" y="${y}" font-size="11" fill="#555">${escape(line)}</text>`);
  }
  for (const panel of chart.panels) {
    y += 30;
    out.push(
      `<text x="${labelX}" y="${y}" font-size="13" font-weight="bold">${escape(`${panel.title} (${panel.unit})`)}</text>`,
    );
    const top =
      Math.max(...panel.rows.flatMap((r) => r.bars.flatMap((b) => [b.value, b.target ?? 0])), 1) *
      1.05;
    const x = (value: number) => barX + (Math.max(value, 0) / top) * barMax;
    for (const row of panel.rows) {
      y += 8;
      row.bars.forEach((bar, index) => {
        y += 16;
        if (index === 0)
          out.push(`<text x="${labelX}" y="${y}" font-size="12">${escape(row.label)}</text>`);
        out.push(
          `<text x="${keyX}" y="${y}" font-size="11" text-anchor="end" fill="#555">${escape(bar.key)}</text>`,
        );
        out.push(
          `<rect x="${barX}" y="${y - 11}" width="${(x(bar.value) - barX).toFixed(1)}" height="13" fill="${bar.color}"/>`,
        );
        const sign = { max: "≤", min: "≥", exact: "=" }[bar.goal ?? "max"];
        const target = bar.target === undefined ? "" : ` (target ${sign} ${fmt(bar.target)})`;
        const note = bar.note ? ` ${bar.note}` : "";
        const textX = Math.max(x(bar.value), bar.target === undefined ? 0 : x(bar.target)) + 6;
        out.push(
          `<text x="${textX.toFixed(1)}" y="${y}" font-size="11">${escape(`${fmt(bar.value)}${note}${target}`)}</text>`,
        );
        if (bar.target !== undefined)
          out.push(
            `<line x1="${x(bar.target).toFixed(1)}" x2="${x(bar.target).toFixed(1)}" y1="${y - 14}" y2="${y + 3}" stroke="#222" stroke-width="2"/>`,
          );
      });
    }
  }
  const height = y + 24;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="#fff"/>\n${out.join("\n")}\n</svg>\n`;
};

const builders: Record<string, (results: Result[]) => Chart> = {
  search: searchChart,
  token: tokenChart,
  mcp: mcpChart,
  purchase: purchaseChart,
  watches: watchesChart,
  webhooks: webhooksChart,
  embedded: embeddedChart,
  soak: soakChart,
  "catalog-load": catalogLoadChart,
  checkout: checkoutChart,
};

/** The benchmark a result belongs to: its `name` (quote and checkout are one), else its file's prefix. */
const benchmarkOf = ({ file, data }: Result) => {
  const name = String(data.name ?? file.split("-")[0]);
  return name === "quote" ? "checkout" : name;
};

const main = () => {
  const results: Result[] = readdirSync(resultsDir)
    // compare-<date>.json (npm run bench:compare) holds other benchmarks' rounds, not a chart's.
    .filter((file) => file.endsWith(".json") && !file.startsWith("compare-"))
    .sort()
    .map((file) => ({ file, data: JSON.parse(readFileSync(path.join(resultsDir, file), "utf8")) }));
  const groups = new Map<string, Result[]>();
  for (const result of results)
    groups.set(benchmarkOf(result), [...(groups.get(benchmarkOf(result)) ?? []), result]);
  const charts: [string, Chart][] = [["checkout-quote", checkoutQuoteChart()]];
  for (const [name, group] of groups) {
    const build = builders[name];
    if (build) charts.push([name, build(group)]);
    else console.warn(`no chart for ${name} (${group.map((r) => r.file).join(", ")})`);
  }
  for (const [name, chart] of charts) {
    writeFileSync(path.join(resultsDir, `${name}.svg`), render(chart));
    console.log(`wrote bench/results/${name}.svg`);
  }
};

main();
