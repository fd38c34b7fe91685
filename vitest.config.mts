import path from "node:path";
import { defineConfig } from "vitest/config";

const include = [
  "server/**/*.test.ts",
  "prisma/**/*.test.ts",
  "emails/**/*.test.ts",
  "sdk/**/*.test.ts",
];
const loadTier = ["server/**/*.load.test.ts"];
const clusterTier = ["server/**/*.cluster.test.ts"];
const jsonReport = process.env.VITEST_JSON_REPORT ?? "reports/vitest.json";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    globalSetup: ["server/testing/global-setup.ts"],
    setupFiles: ["server/testing/quiet-logs.ts", "server/testing/per-file-database.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // CI's second run (the integration tier under Node 24) writes its own report: .ci/run. Errors
    // outside any test go beside it (.errors.json), which the JSON report has no place for.
    reporters: process.env.CI
      ? [
          "default",
          ["json", { outputFile: jsonReport }],
          [
            "./server/testing/run-errors-reporter.ts",
            { outputFile: jsonReport.replace(/\.json$/, ".errors.json") },
          ],
        ]
      : ["default"],
    env: { TZ: "UTC", NEXT_TELEMETRY_DISABLED: "1", SEED_ITEMS: "0" },
    // The load tier (a whole `npm start` under 32 clients) runs after the others, alone, so neither
    // slows the other down: projects with a higher groupOrder start when the lower ones are done.
    projects: [
      {
        extends: true,
        test: {
          name: "tests",
          include,
          exclude: [...loadTier, ...clusterTier, "**/node_modules/**"],
        },
      },
      { extends: true, test: { name: "load", include: loadTier, sequence: { groupOrder: 1 } } },
      // Three instances behind HAProxy (server/testing/multi-instance.cluster.test.ts): last, alone.
      {
        extends: true,
        test: { name: "cluster", include: clusterTier, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
