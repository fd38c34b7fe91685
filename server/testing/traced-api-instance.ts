/**
 * The API as server/testing/api-instance.ts serves it, with tracing started first as `npm start`
 * starts it (server/start.ts): the SDK before node:http and pg are loaded. Prints
 * `{"base": "http://127.0.0.1:PORT", "otel": <whether the SDK module is loaded>}` once listening;
 * flushes its spans on SIGTERM.
 */
import { parseEnv } from "../platform/env";
import { startTracing } from "../platform/observability/tracing";

const main = async () => {
  const tracing = await startTracing(parseEnv());
  const { startConnectorServer } = await import("./mcp-server");
  const { base } = await startConnectorServer();
  const otel = Object.keys(require.cache).some((file) => file.includes("@opentelemetry/sdk-node"));
  console.log(JSON.stringify({ base, otel }));
  process.on("SIGTERM", () => void tracing.stop().then(() => process.exit(0)));
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
