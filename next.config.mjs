import { securityHeaders } from "./server/http/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and WebAssembly packages stay ordinary Node requires instead of being bundled.
  serverExternalPackages: ["pg", "ioredis", "@prisma/adapter-pg", "rate-limiter-flexible"],
  poweredByHeader: false,
  typescript: { tsconfigPath: "tsconfig.json" },
  // The same list is sent by the lean API layer (server/http/security-headers.mjs).
  headers: async () => [{ source: "/:path*", headers: securityHeaders }],
};

export default nextConfig;
