import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["server/**/*.test.ts", "prisma/**/*.test.ts", "emails/**/*.test.ts"],
    globalSetup: ["server/testing/global-setup.ts"],
    setupFiles: ["server/testing/per-file-database.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: process.env.CI ? ["default", ["json", { outputFile: "reports/vitest.json" }]] : ["default"],
    env: { TZ: "UTC", NEXT_TELEMETRY_DISABLED: "1", SEED_ITEMS: "0" },
  },
});
