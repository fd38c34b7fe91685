/**
 * `npm start`: validates the configuration, starts the embedded database when DATABASE_URL is not
 * set, applies migrations, seeds the sandbox catalogue on first start, builds the app if it has
 * not been built, and serves everything (pages, /api/v1, /oauth) on PORT.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the server's modules load with require,
   after tracing started: `npm start` registers only tsx's CommonJS hook, which cannot load a
   TypeScript module through import() (tsx's ESM hook runs on a loader thread of its own, about 36 MB
   of RSS; docs/adr/0093-memory-of-the-running-service.md). */
import { spawnSync } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { isBuildStale } from "./edges/ops/next-build";
import { checkLaunchable, parseEnv } from "./platform/env";
import { logger } from "./platform/observability/log";
import { applySourceMapsChoice } from "./platform/source-maps";
import { startTracing } from "./platform/observability/tracing";

// First, before the modules it would keep a map of are loaded.
applySourceMapsChoice();

const startLogger = logger.child({ component: "start" });
const log = (line: string) => startLogger.info(line);

const main = async () => {
  let config;
  try {
    // First of all, before a database or a build: production refuses unsafe settings, naming each.
    config = parseEnv();
    // The launcher is what a real deployment runs: a Stripe processor without its keys would only fail at the first payment.
    checkLaunchable(config);
  } catch (error) {
    // The refusal to start is for the operator at the terminal: the message as written, one variable a line.
    console.error((error as Error).message);
    process.exit(1);
  }
  // Before anything loads node:http or pg, so the instrumentations patch them (docs/adr/0113-traces.md).
  const tracing = startTracing(config);
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  process.env.PUBLIC_URL = config.PUBLIC_URL;
  // The generated sandbox secret (DATA_DIR/app-secret) travels to the build and every later reader.
  process.env.APP_SECRET = config.APP_SECRET;
  let stopDatabase = async () => undefined as void;
  if (!config.DATABASE_URL) {
    const {
      startEmbeddedDatabase,
    }: typeof import("./platform/embedded-db") = require("./platform/embedded-db");
    // The graceful shutdown owns SIGTERM and closes this database last.
    const embedded = await startEmbeddedDatabase(config.DATA_DIR, undefined, {
      callerHandlesSignals: true,
    });
    process.env.DATABASE_URL = embedded.url;
    stopDatabase = embedded.stop;
    log(`embedded PostgreSQL in ${path.resolve(config.DATA_DIR, "postgres")} (Unix socket only)`);
  }
  const {
    prepareDatabase,
  }: typeof import("./edges/ops/prepare-database") = require("./edges/ops/prepare-database");
  await prepareDatabase({ url: process.env.DATABASE_URL!, seedItems: config.SEED_ITEMS, log });

  const root = path.resolve(__dirname, "..");
  if (isBuildStale(root)) {
    log("building the app (no build yet, or sources changed since the last one)");
    const build = spawnSync(process.execPath, [require.resolve("next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: process.env,
    });
    if (build.status !== 0) throw new Error("next build failed");
  }
  // After the (blocking) build: the index builds in the background while the server starts, and
  // pg-search answers until it is ready (server/catalogue/search/index.ts).
  let stopSearch = async () => undefined as void;
  let isSearchIndexBuilding = false;
  if (config.SEARCH_IMPL === "memory") {
    const {
      startCatalogIndex,
    }: typeof import("./catalogue/search/memory/start-index") = require("./catalogue/search/memory/start-index");
    const { host, ready } = startCatalogIndex({ databaseUrl: process.env.DATABASE_URL!, log });
    stopSearch = () => host.stop();
    // Settles when built, or when it failed and PostgreSQL answers for good: /readyz waits for either.
    isSearchIndexBuilding = true;
    void ready.then(() => (isSearchIndexBuilding = false));
  } else log("search served by PostgreSQL (SEARCH_IMPL=postgres)");
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname: "0.0.0.0", port: config.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  // The partner API, the MCP connectors and Stripe's webhook skip Next's request pipeline (server/edges/http/lean-api.ts); pages stay in Next.
  let handleApi: (request: IncomingMessage, response: ServerResponse) => boolean = () => false;
  if (config.LEAN_API === "on") {
    const {
      createLeanApi,
    }: typeof import("./edges/http/lean-api") = require("./edges/http/lean-api");
    const leanApi = await createLeanApi({
      appDir: path.join(root, "app"),
      prefixes: ["api/v1", "oauth/token", "mcp", "stripe/webhook"],
      origin: config.PUBLIC_URL,
      loadModule: require,
    });
    handleApi = leanApi.handle;
    log(
      `partner API served by node:http (${leanApi.routes.length} routes); LEAN_API=off hands everything to Next`,
    );
  }
  // Every request gets its X-Request-Id there first, pages included (server/edges/http/front-door.ts);
  // /healthz and /readyz are answered before anything else (server/edges/http/probes.ts).
  const {
    createFrontServer,
  }: typeof import("./edges/http/front-door") = require("./edges/http/front-door");
  const {
    createLifecycle,
  }: typeof import("./edges/http/lifecycle") = require("./edges/http/lifecycle");
  const lifecycle = createLifecycle({
    databaseUrl: process.env.DATABASE_URL!,
    log,
    isSearchIndexBuilding: () => isSearchIndexBuilding,
  });
  const server = createFrontServer({ probes: lifecycle.probes, api: handleApi, next: handle });
  // Timed transitions and the email outbox, on a thread beside the server's (DESIGN.md, Jobs).
  const {
    startSweepThread,
  }: typeof import("./edges/jobs/sweep-thread") = require("./edges/jobs/sweep-thread");
  const sweep = startSweepThread(log);
  const {
    connectRateLimitStore,
  }: typeof import("./platform/rate-limit") = require("./platform/rate-limit");
  await connectRateLimitStore();
  server.listen(config.PORT, () =>
    log(`serving ${config.PUBLIC_URL} (port ${config.PORT}, ${config.SERVICE_ENV})`),
  );
  // SIGTERM: /readyz 503 and the sweep stops taking work at once, the drain, then the requests in
  // flight finish; nothing touches the database after it closed (server/edges/http/graceful-shutdown.ts).
  const { flushCalls }: typeof import("./edges/rest/call-log") = require("./edges/rest/call-log");
  lifecycle.handleSignals({
    server,
    stopBackground: () => sweep.stop(),
    closers: [stopSearch, flushCalls],
    // The last spans (the shutdown's own SQL) leave after the database closed.
    afterDatabase: async () => {
      await stopDatabase();
      await tracing.stop();
    },
  });
};

main().catch((error: unknown) => {
  startLogger.fatal({ err: error }, "start failed");
  process.exit(1);
});
