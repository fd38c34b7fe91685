/**
 * `npm run bench -- token`: POST /oauth/token (client_credentials, client_secret_basic) for a client
 * made with the ops CLI: throughput at 32 connections, latency open loop at 500 req/s (the target's load).
 */
import { ensureCatalogDatabase } from "./lib/database";
import { runPhase } from "./lib/load";
import { runOpenLoop } from "./lib/open-loop";
import { machine } from "./lib/machine";
import { basicAuth, createClientWithCli } from "./lib/partners";
import { printTable, writeResult } from "./lib/report";
import { sampleRss } from "./lib/rss";
import { startService } from "./lib/service";

export const benchToken = async (options: { items: number; seconds: number }) => {
  const log = (line: string) => console.log(line);
  const machineAtStart = machine();
  const database = await ensureCatalogDatabase(options.items, log);
  const service = await startService({ databaseUrl: database.url, searchImpl: "memory", log });
  const rss = sampleRss(service.pid);
  try {
    const client = createClientWithCli(database.url);
    const request = () => ({
      path: "/oauth/token",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basicAuth(client.clientId, client.secret),
      },
      body: "grant_type=client_credentials",
    });
    const base = { baseUrl: service.baseUrl, method: "POST" as const, next: request };
    await runPhase({ ...base, connections: 8, durationSeconds: 3 });
    rss.reset();
    log(`token: throughput, 32 connections, ${options.seconds} s`);
    const throughput = await runPhase({
      ...base,
      connections: 32,
      durationSeconds: options.seconds,
    });
    log(`token: latency, open loop at 500 req/s, ${options.seconds} s`);
    const latency = await runOpenLoop({ ...base, durationSeconds: options.seconds, rate: 500 });
    const memory = rss.stop();
    const rows = [
      {
        phase: "32 connections",
        "req/s": throughput.requestsPerSecond,
        p50: throughput.p50,
        p95: throughput.p95,
        p99: throughput.p99,
        errors: throughput.errors,
      },
      {
        phase: "open loop 500 req/s",
        "req/s": latency.requestsPerSecond,
        p50: latency.p50,
        p95: latency.p95,
        p99: latency.p99,
        errors: latency.errors,
      },
    ];
    printTable("token endpoint (client_credentials), ms", rows);
    console.log(`server RSS peak ${memory.peakMb} MB`);
    const record = {
      name: "token",
      measuredAt: new Date().toISOString(),
      machine: machine(),
      loadAverageAtStart: machineAtStart.loadAverage,
      database: database.name,
      throughput,
      latency,
      rssMb: memory,
    };
    console.log(`\nwrote ${writeResult("token", record)}`);
  } finally {
    rss.stop();
    await service.stop();
  }
};
