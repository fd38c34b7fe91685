/**
 * CPU time used by a process tree (the service under `npm start`) and by the PostgreSQL server
 * processes on this box, from /proc/<pid>/stat: how much of a request's cost is
 * the service's own work and how much the database's, for a phase of a benchmark.
 */
import { readdirSync, readFileSync } from "node:fs";
import { processTree } from "./rss";

/** Linux's USER_HZ: /proc reports CPU time in hundredths of a second. */
const ticksPerSecond = 100;

const cpuTicks = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime + stime, plus cutime + cstime: the CPU of waited-for children that exited (the
    // postmaster's ended backends), without which a reading drops when a connection closes.
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
};

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
};

const postgresPids = () =>
  readdirSync("/proc")
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && commandOf(pid) === "postgres");

/** CPU milliseconds of the service tree and of PostgreSQL so far; subtract two readings for a phase. */
export const cpuReading = (serviceRoot: number) => ({
  serviceMs:
    (processTree(serviceRoot).reduce((sum, pid) => sum + cpuTicks(pid), 0) * 1000) / ticksPerSecond,
  postgresMs: (postgresPids().reduce((sum, pid) => sum + cpuTicks(pid), 0) * 1000) / ticksPerSecond,
});

/** CPU per request over a phase: the service's and PostgreSQL's, in ms. */
export const cpuPerRequest = (
  before: ReturnType<typeof cpuReading>,
  after: ReturnType<typeof cpuReading>,
  requests: number,
) => ({
  serviceMs: Math.round(((after.serviceMs - before.serviceMs) / Math.max(1, requests)) * 10) / 10,
  postgresMs:
    Math.round(((after.postgresMs - before.postgresMs) / Math.max(1, requests)) * 10) / 10,
});
