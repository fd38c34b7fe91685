/**
 * The API as server/testing/api-instance.ts serves it, with tracing started first as `npm start`
 * starts it (server/start.ts): the SDK before node:http and pg are loaded. Prints
 * `{"base": "http://127.0.0.1:PORT", "otel": <whether the SDK module is loaded>}` once listening;
 * flushes its spans on SIGTERM. TRACED_INSTANCE_SWEEP=on starts the sweep thread too.
 */
import { parseEnv } from "../platform/env";
import { startTracing } from "../platform/observability/tracing";

const main = async () => {
  const tracing = startTracing(parseEnv());
  const { startConnectorServer } = await import("./mcp-server");
  const { base } = await startConnectorServer();
  // The due-work sweep on its thread, as npm start runs it, when the test asks for it.
  const sweep =
    process.env.TRACED_INSTANCE_SWEEP === "on"
      ? (await import("../edges/jobs/sweep-thread")).startSweepThread(() => undefined)
      : undefined;
  const otel = Object.keys(require.cache).some((file) => file.includes("@opentelemetry/sdk-node"));
  console.log(JSON.stringify({ base, otel }));
  process.on("SIGTERM", async () => {
    await sweep?.stop();
    await tracing.stop();
    process.exit(0);
  });
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
