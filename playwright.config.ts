import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;
/** The second service, as in production with the Stripe processor (against a Stripe-shaped server and the Stripe.js stand-in). */
export const stripeBaseURL = `http://127.0.0.1:${port + 100}`;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: "reports/playwright.json" }], ["html", { open: "never" }]]
    : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "api", testMatch: "api/**/*.spec.ts" },
    { name: "ui", testMatch: "ui/**/*.spec.ts" },
    { name: "stripe", testMatch: "stripe/**/*.spec.ts", use: { baseURL: stripeBaseURL } },
    // docs/screens/, rewritten by `npm run screens` only: not a test of `npm test`.
    ...(process.env.SCREENS ? [{ name: "screens", testMatch: "screens/**/*.spec.ts" }] : []),
  ],
  webServer: [
    {
      command: "npx tsx e2e/serve.ts",
      url: `${baseURL}/`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { E2E_PORT: String(port) },
      // SIGTERM, not Playwright's default kill: e2e/serve.ts then stops the service and drops its database.
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
    {
      // Started after the first (Playwright starts its web servers in order), so the app is built once.
      command: "npx tsx e2e/serve.ts",
      url: `${stripeBaseURL}/`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { E2E_PORT: String(port + 100), E2E_PROCESSOR: "stripe" },
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
  ],
});
