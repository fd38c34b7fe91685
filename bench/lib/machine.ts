/** What the figures were measured on: cores, CPU model, RAM and the load other work put on it. */
import { cpus, loadavg, totalmem } from "node:os";
import { readFileSync } from "node:fs";

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
