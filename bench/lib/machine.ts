/** What the figures were measured on: cores, CPU model, RAM and the load other work put on it. */
import { cpus, loadavg, totalmem } from "node:os";
import { readFileSync } from "node:fs";
import { withAdmin } from "../../server/testing/databases";

const cpuModel = () => {
  const line = readFileSync("/proc/cpuinfo", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("model name"));
  return line?.split(":")[1]?.trim() ?? cpus()[0]?.model ?? "unknown";
};

export const machine = () => ({
  nproc: cpus().length,
  cpu: cpuModel(),
  ramGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  node: process.version,
  loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
});

/**
 * The PostgreSQL server's settings (read on its admin database) that can move a benchmark's
 * figures: a run on a server left at its package's defaults (128 MB of shared buffers) and one on
 * a tuned server are not comparable unawares, so each result says which it had
 * (docs/performance.md, "Watches": the sale on both).
 */
const postgresSettingNames = [
  "server_version",
  "shared_buffers",
  "max_wal_size",
  "checkpoint_timeout",
  "jit",
  "random_page_cost",
  "effective_cache_size",
  "synchronous_commit",
  "autovacuum",
];

export const postgresSettings = () =>
  withAdmin(async (client) => {
    const { rows } = await client.query<{ name: string; setting: string }>(
      "SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1)",
      [postgresSettingNames],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
  });
