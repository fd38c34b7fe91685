/**
 * What `npm run bench:compare` reads from each benchmark's JSON record (bench/results/<name>.json,
 * the same shape before and after the re-cut), and how it tells a change from noise.
 */

type Better = "lower" | "higher" | "info";
export type Metric = { name: string; better: Better; value: (record: unknown) => number | null };

const field = (value: unknown, key: string) =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;

/** The number at a dotted path of a record, or null. */
const at = (value: unknown, dotted: string): number | null => {
  const found = dotted.split(".").reduce(field, value);
  return typeof found === "number" && Number.isFinite(found) ? found : null;
};

/** The value of a row of the record's printed table, by its label. */
const tableValue = (record: unknown, label: string) => {
  const rows = field(record, "table");
  const row = Array.isArray(rows) ? rows.find((entry) => field(entry, "metric") === label) : null;
  return at(row, "value");
};

const searchImpl = (record: unknown, impl: string) => {
  const results = field(record, "results");
  return Array.isArray(results) ? results.find((result) => field(result, "impl") === impl) : null;
};

const searchMetrics = (impl: "memory" | "postgres"): Metric[] => {
  const of = (dotted: string) => (record: unknown) => at(searchImpl(record, impl), dotted);
  const metric = (name: string, better: Better, dotted: string) => ({
    name: `${impl}: ${name}`,
    better,
    value: of(dotted),
  });
  return [
    metric("mix p50 ms (open loop, half load)", "lower", "latency.p50"),
    metric("mix p95 ms (open loop, half load)", "lower", "latency.p95"),
    metric("mix p99 ms (open loop, half load)", "lower", "latency.p99"),
    metric("open-loop rate req/s (half the req/s)", "info", "latency.rate"),
    metric("mix req/s (32 conns)", "higher", "throughput.requestsPerSecond"),
    metric("mix p50 ms at 32 conns", "lower", "throughput.p50"),
    metric("mix p95 ms at 32 conns", "lower", "throughput.p95"),
    metric("mix p99 ms at 32 conns", "lower", "throughput.p99"),
    metric("deep page 2000x48 p95 ms", "lower", "deepPage.p95"),
    metric("hot URL req/s (50 conns)", "higher", "hotQuery.requestsPerSecond"),
    metric("hot URL p99 ms", "lower", "hotQuery.p99"),
    metric("sold item gone, max ms", "lower", "freshness.soldMaxMs"),
    metric("price change visible, max ms", "lower", "freshness.priceMaxMs"),
    metric("server RSS peak MB", "lower", "rssMb.peak"),
    metric("index build ms", "lower", "indexBuildMs"),
    {
      name: `${impl}: errors (all phases)`,
      better: "lower",
      value: (record) => {
        const phases = ["throughput", "latency", "deepPage", "hotQuery"];
        const counts = phases.map((phase) => of(`${phase}.errors`)(record));
        return counts.every((count) => count === null) ? null : counts.reduce((a, b) => a! + b!, 0);
      },
    },
  ];
};

const phaseMetrics = (label: string, key: string, withCpu = false): Metric[] => [
  { name: `${label} p50 ms`, better: "lower", value: (r) => at(r, `${key}.p50`) },
  { name: `${label} p95 ms`, better: "lower", value: (r) => at(r, `${key}.p95`) },
  { name: `${label} p99 ms`, better: "lower", value: (r) => at(r, `${key}.p99`) },
  { name: `${label} req/s`, better: "higher", value: (r) => at(r, `${key}.requestsPerSecond`) },
  { name: `${label} errors`, better: "lower", value: (r) => at(r, `${key}.errors`) },
  ...(withCpu
    ? ([
        {
          name: `${label} service CPU ms/req`,
          better: "lower",
          value: (r) => at(r, `${key}.cpu.serviceMs`),
        },
        {
          name: `${label} PostgreSQL CPU ms/req`,
          better: "lower",
          value: (r) => at(r, `${key}.cpu.postgresMs`),
        },
      ] as Metric[])
    : []),
];

/** The figures compared, per benchmark; a metric no round reports is left out of the table. */
export const metricsOf: Record<string, Metric[]> = {
  search: [...searchMetrics("memory"), ...searchMetrics("postgres")],
  purchase: [
    ...phaseMetrics("POST /purchases", "latency", true),
    ...phaseMetrics("POST /checkout/quotes (reference)", "reference", true),
    {
      name: "race: items with exactly one hold",
      better: "higher",
      value: (r) => at(r, "race.exactlyOneHold"),
    },
    { name: "race: most holds on one item", better: "lower", value: (r) => at(r, "race.maxHolds") },
  ],
  watches: [
    ...phaseMetrics("search mix, no watches,", "without"),
    ...phaseMetrics("search mix, live watches and alerts,", "withWatches"),
    {
      name: "p95 ratio (with / without)",
      better: "lower",
      value: (r) => tableValue(r, "p95 ratio (with / without)"),
    },
    {
      name: "sale: items repriced (one transaction), ms",
      better: "lower",
      value: (r) => tableValue(r, "sale: items repriced (one transaction), ms"),
    },
    {
      name: "all qualifying bought, declined or ended, s",
      better: "lower",
      value: (r) => tableValue(r, "all qualifying bought, declined or ended, s"),
    },
    { name: "qualifying watches", better: "info", value: (r) => at(r, "qualifying") },
    { name: "purchases made", better: "info", value: (r) => at(r, "duplicates.purchases") },
    {
      name: "sizes bought beyond their stock",
      better: "lower",
      value: (r) => at(r, "duplicates.sizes_oversold"),
    },
    { name: "alerts notified", better: "info", value: (r) => at(r, "alerts.notified") },
  ],
};

/**
 * Below this a difference is never flagged: with two rounds a tree's spread can be near zero by
 * chance, and a few percent is what the same code moves between quiet runs on this box.
 */
export const noiseFloorPercent = 5;

export type Comparison = {
  metric: string;
  better: Better;
  old: number[];
  new: number[];
  oldMedian: number | null;
  newMedian: number | null;
  changePercent: number | null;
  noisePercent: number | null;
  verdict: string;
};

const median = (values: number[]) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The spread of one tree's rounds, (max - min) / |median|, in percent. */
const spreadPercent = (values: number[]) => {
  const middle = median(values);
  if (middle === null || values.length < 2) return null;
  const spread = Math.max(...values) - Math.min(...values);
  return middle === 0 ? (spread === 0 ? 0 : null) : (spread / Math.abs(middle)) * 100;
};

const round = (value: number | null, digits = 1) =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Old against new for one metric. Noise is the larger spread of either tree's rounds (percent of its
 * median), at least noiseFloorPercent. A change is flagged only when it is larger than the noise AND
 * the two trees' ranges of rounds do not overlap (every old round on one side of every new one).
 */
export const compare = (metric: Metric, oldValues: number[], newValues: number[]): Comparison => {
  const oldMedian = median(oldValues);
  const newMedian = median(newValues);
  const spreads = [spreadPercent(oldValues), spreadPercent(newValues)];
  const noisePercent = spreads.some((spread) => spread === null)
    ? null
    : Math.max(noiseFloorPercent, ...(spreads as number[]));
  const changePercent =
    oldMedian === null || newMedian === null || oldMedian === 0
      ? null
      : ((newMedian - oldMedian) / Math.abs(oldMedian)) * 100;
  const isApart =
    oldValues.length > 0 &&
    newValues.length > 0 &&
    (Math.min(...newValues) > Math.max(...oldValues) ||
      Math.max(...newValues) < Math.min(...oldValues));
  const isBeyondNoise =
    isApart &&
    (changePercent === null
      ? oldMedian !== newMedian
      : noisePercent === null || Math.abs(changePercent) > noisePercent);
  const isBetter =
    newMedian !== null &&
    oldMedian !== null &&
    (metric.better === "lower" ? newMedian < oldMedian : newMedian > oldMedian);
  const verdict =
    !oldValues.length || !newValues.length
      ? "missing"
      : !isBeyondNoise
        ? "within noise"
        : metric.better === "info"
          ? "changed (context)"
          : isBetter
            ? "BETTER, beyond noise"
            : "WORSE, beyond noise";
  return {
    metric: metric.name,
    better: metric.better,
    old: oldValues,
    new: newValues,
    oldMedian: round(oldMedian, 2),
    newMedian: round(newMedian, 2),
    changePercent: round(changePercent),
    noisePercent: round(noisePercent),
    verdict,
  };
};
