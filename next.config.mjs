/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and WebAssembly packages stay ordinary Node requires instead of being bundled.
  serverExternalPackages: ["pg", "ioredis", "@prisma/adapter-pg", "rate-limiter-flexible"],
  poweredByHeader: false,
  typescript: { tsconfigPath: "tsconfig.json" },
  // No page of this site may be framed by another (clickjacking of consent, account and checkout pages).
  headers: async () => [
    { source: "/:path*", headers: [{ key: "Content-Security-Policy", value: "frame-ancestors 'none'" }, { key: "X-Frame-Options", value: "DENY" }] },
  ],
};

export default nextConfig;
