/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and WebAssembly packages stay ordinary Node requires instead of being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "ioredis", "@prisma/adapter-pg", "rate-limiter-flexible"],
  poweredByHeader: false,
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default nextConfig;
