/**
 * `npm run bench -- mcp [--items N] [--seconds S] [--rate R]`: search_products through the public
 * connector (/mcp, a JSON-RPC tools/call per request) against the same queries over REST
 * (GET /api/v1/products), in one `npm start` process on the same catalogue: the search mix of
 * bench/search.ts, open loop at the same rate, fresh answers (Cache-Control: no-cache) on both.
 * The target: the connector's p95 within 5 ms of REST's. Requests are spread over many partners
 * (REST) and many sessions from many addresses (MCP, TRUST_PROXY=1 and X-Forwarded-For) so no rate
 * limit is met; a first pass checks that both answer every query with the same totals.
 */
import type { PhaseResult } from "./lib/load";
import { machine } from "./lib/machine";
import { runOpenLoop } from "./lib/open-loop";
import { createPartners, tokenRotation } from "./lib/partners";
import { catalogWithSearchMix } from "./lib/query-mix";
import { printTable, writeResult } from "./lib/report";
import { startService } from "./lib/service";

const arrays = new Set(["size", "color", "brand"]);
const numbers = new Set(["page", "per_page"]);

/** A mix entry's query string as search_products arguments (the REST parameter names). */
const toArguments = (path: string) => {
  const query = new URL(path, "http://bench").searchParams;
  const args: Record<string, unknown> = {};
  for (const key of new Set(query.keys()))
    args[key] = arrays.has(key)
      ? query.getAll(key)
      : numbers.has(key)
        ? Number(query.get(key))
        : query.get(key);
  return args;
};

const mcpHeaders = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

type Session = { id: string; address: string };

/** `count` connector sessions, each from its own address. */
const openSessions = async (baseUrl: string, count: number): Promise<Session[]> => {
  const sessions: Session[] = [];
  for (let i = 0; i < count; i++) {
    const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const response = await fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: { ...mcpHeaders, "x-forwarded-for": address },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "bench", version: "1" },
        },
      }),
    });
    if (!response.ok)
      throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
    sessions.push({ id: response.headers.get("mcp-session-id")!, address });
  }
  return sessions;
};

const toolCall = (id: number, args: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "search_products", arguments: args },
  });

/** Every query of the first `count` through both edges: the totals must agree and no call may fail. */
const checkAgreement = async (options: {
  baseUrl: string;
  paths: string[];
  authorization: () => string;
  sessions: Session[];
}) => {
  let mismatches = 0;
  for (const [i, path] of options.paths.entries()) {
    const rest = (await (
      await fetch(`${options.baseUrl}${path}`, {
        headers: { authorization: options.authorization() },
      })
    ).json()) as { pagination?: { total: number } };
    const session = options.sessions[i % options.sessions.length];
    const answer = (await (
      await fetch(`${options.baseUrl}/mcp`, {
        method: "POST",
        headers: {
          ...mcpHeaders,
          "mcp-session-id": session.id,
          "x-forwarded-for": session.address,
        },
        body: toolCall(i, toArguments(path)),
      })
    ).json()) as {
      result?: { isError?: boolean; structuredContent?: { pagination: { total: number } } };
    };
    if (
      answer.result?.isError ||
      answer.result?.structuredContent?.pagination.total !== rest.pagination?.total
    )
      mismatches++;
  }
  return mismatches;
};

export const benchMcp = async (options: { items: number; seconds: number; rate: number }) => {
  const log = (line: string) => console.log(line);
  const { database, mix } = await catalogWithSearchMix(options.items, log);
  const service = await startService({
    databaseUrl: database.url,
    searchImpl: "memory",
    log,
    env: { TRUST_PROXY: "1" },
  });
  try {
    // 120 requests a minute per partner and per session: enough of each for warm-up plus the phase.
    const needed = Math.ceil((options.rate * (options.seconds + 5)) / 100) + 10;
    log(`mcp: ${needed} partners and ${needed} connector sessions`);
    const authorization = tokenRotation(
      await createPartners({ baseUrl: service.baseUrl, databaseUrl: database.url, count: needed }),
    );
    const sessions = await openSessions(service.baseUrl, needed);
    const mismatches = await checkAgreement({
      baseUrl: service.baseUrl,
      paths: mix.slice(0, 50),
      authorization,
      sessions,
    });

    let next = 0;
    let rpcId = 1;
    const restRequest = () => ({
      path: mix[next++ % mix.length],
      headers: { authorization: authorization(), "cache-control": "no-cache" },
    });
    const mcpRequest = () => {
      const session = sessions[rpcId % sessions.length];
      return {
        path: "/mcp",
        headers: {
          ...mcpHeaders,
          "cache-control": "no-cache",
          "mcp-session-id": session.id,
          "x-forwarded-for": session.address,
        },
        body: toolCall(rpcId++, toArguments(mix[next++ % mix.length])),
      };
    };
    const base = { baseUrl: service.baseUrl, rate: options.rate };
    log("mcp: warm-up, both edges");
    await runOpenLoop({ ...base, durationSeconds: 3, next: restRequest });
    await runOpenLoop({ ...base, durationSeconds: 3, method: "POST", next: mcpRequest });
    // The same queries in the same order on both edges; two rounds each, alternating, so drift in the machine's load hits both.
    const phases: { edge: "rest" | "mcp"; result: PhaseResult }[] = [];
    for (const round of [1, 2]) {
      next = 0;
      log(`mcp: round ${round}, REST at ${options.rate} req/s for ${options.seconds} s`);
      phases.push({
        edge: "rest",
        result: await runOpenLoop({ ...base, durationSeconds: options.seconds, next: restRequest }),
      });
      next = 0;
      log(`mcp: round ${round}, MCP at ${options.rate} req/s for ${options.seconds} s`);
      phases.push({
        edge: "mcp",
        result: await runOpenLoop({
          ...base,
          durationSeconds: options.seconds,
          method: "POST",
          next: mcpRequest,
        }),
      });
    }
    const mean = (edge: string, pick: (result: PhaseResult) => number) =>
      Math.round(
        (phases
          .filter((phase) => phase.edge === edge)
          .reduce((sum, phase) => sum + pick(phase.result), 0) /
          2) *
          100,
      ) / 100;
    const row = (edge: "rest" | "mcp") => ({
      edge: edge === "rest" ? "REST GET /api/v1/products" : "MCP search_products",
      "p50 ms": mean(edge, (r) => r.p50),
      "p95 ms": mean(edge, (r) => r.p95),
      "p99 ms": mean(edge, (r) => r.p99),
      "req/s": mean(edge, (r) => r.requestsPerSecond),
      errors: phases
        .filter((phase) => phase.edge === edge)
        .reduce((sum, phase) => sum + phase.result.errors, 0),
    });
    const rows = [row("rest"), row("mcp")];
    const gap = Math.round((rows[1]["p95 ms"] - rows[0]["p95 ms"]) * 100) / 100;
    printTable(
      `search_products via MCP vs REST, ${options.items} items, open loop ${options.rate} req/s, mean of 2 rounds`,
      rows,
    );
    console.log(
      `\np95 gap (MCP - REST): ${gap} ms; target within 5 ms: ${gap <= 5 ? "met" : "NOT met"}; answers that disagreed in the check: ${mismatches} of 50`,
    );
    const record = {
      name: "mcp",
      items: options.items,
      rate: options.rate,
      seconds: options.seconds,
      measuredAt: new Date().toISOString(),
      machine: machine(),
      mismatches,
      phases,
      table: rows,
      p95GapMs: gap,
    };
    console.log(`wrote ${writeResult(`mcp-${options.items}`, record)}`);
  } finally {
    await service.stop();
  }
};
