/**
 * A complete, safe production configuration for tests that run a part of the service as production
 * (parseEnv refuses production without SMTP, an https PUBLIC_URL, live Stripe keys, ...). Nothing
 * here reaches a real server: the tests that use it never send mail nor pay.
 */
import { useEnv } from "./use-env";

export const productionSettings = {
  SERVICE_ENV: "production",
  PUBLIC_URL: "https://shop.example.ca",
  APP_SECRET: "p".repeat(40),
  SMTP_URL: "smtp://127.0.0.1:2525",
  STRIPE_SECRET_KEY: "sk_live_testonly",
  STRIPE_PUBLISHABLE_KEY: "pk_live_testonly",
  STRIPE_WEBHOOK_SECRET: "whsec_testonly",
  METRICS_TOKEN: "m".repeat(40),
} as const;

/** Switches this test process to production (with `overrides`) for the rest of the current test, then back. */
export const useProductionEnv = (overrides: Record<string, string> = {}) =>
  useEnv({ ...productionSettings, ...overrides });
