/**
 * The connectors over real HTTP for tests: the front door and the lean layer, as `npm start` serves
 * them (X-Request-Id, security headers), with /mcp, /api/v1 and /oauth/token; everything else 404.
 */
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createFrontServer } from "../edges/http/front-door";
import { createLeanApi } from "../edges/http/lean-api";
import { connectRateLimitStore } from "../platform/rate-limit";

export const startConnectorServer = async (
  options: { probes?: Parameters<typeof createFrontServer>[0]["probes"] } = {},
) => {
  const lean = await createLeanApi({
    appDir: path.resolve(__dirname, "../../app"),
    prefixes: ["mcp", "api/v1", "oauth/token"],
    origin: process.env.PUBLIC_URL ?? "http://localhost:3000",
  });
  const server = createFrontServer({
    probes: options.probes,
    api: lean.handle,
    next: (_request, response) => response.writeHead(404).end(),
  });
  await connectRateLimitStore();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    server,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
