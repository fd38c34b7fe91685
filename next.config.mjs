import createNextIntlPlugin from "next-intl/plugin";
import { securityHeaders } from "./server/edges/http/security-headers.mjs";

// Points next-intl at the request configuration: the shopper's language per request (ADR 0110).
const withNextIntl = createNextIntlPlugin("./app/_i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and WebAssembly packages stay ordinary Node requires instead of being bundled.
  serverExternalPackages: [
    "pg",
    "ioredis",
    "@prisma/adapter-pg",
    "rate-limiter-flexible",
    // One copy of the metrics registry's module (server/platform/observability/metrics.ts); pino is external by default.
    "prom-client",
    // A native addon (the email charts' SVG-to-PNG renderer, docs/adr/0119-price-charts.md).
    "@resvg/resvg-js",
  ],
  poweredByHeader: false,
  // Each page's or route's bundle loads when it is first asked for, not all at start: about 50 MB less
  // for a process that serves the partner API (docs/adr/0093-memory-of-the-running-service.md).
  experimental: { preloadEntriesOnStart: false },
  typescript: { tsconfigPath: "tsconfig.json" },
  // The same list is sent by the lean API layer (server/edges/http/security-headers.mjs).
  headers: async () => [{ source: "/:path*", headers: securityHeaders }],
};

export default withNextIntl(nextConfig);
