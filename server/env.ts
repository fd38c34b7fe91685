/**
 * The service's configuration, validated once at start. A wrong value stops the process with a
 * message naming the variable, rather than failing later on first use.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL").optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL").optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// URL").optional(),
  SERVICE_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  DATA_DIR: z.string().default(".data"),
  SEED_ITEMS: z.coerce.number().int().min(0).max(2_000_000).default(5000),
  /**
   * Signs email links, consent forms and session cookies. Required in production and whenever
   * PUBLIC_URL is not a loopback address; otherwise generated once and kept in DATA_DIR/app-secret.
   */
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** How many proxies of ours stand in front: X-Forwarded-For is read only then (see server/http/client-ip.ts). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Per-address and per-client limits of sign-in, sign-up, email links and /oauth/*; `off` only for load tests, never in production. */
  AUTH_RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** Sandbox test allowance: client metadata documents may be fetched from loopback addresses (server/auth/oauth/client-metadata-fetch.ts). */
  CLIENT_METADATA_LOOPBACK: z.enum(["on", "off"]).default("off"),
  /** Which CatalogSearch serves: the in-memory index (built at start) or the PostgreSQL reference. */
  SEARCH_IMPL: z.enum(["memory", "postgres"]).default("memory"),
  /** Serve /api/v1 and /oauth/token from node:http in front of Next (same handlers), or all through Next. */
  LEAN_API: z.enum(["on", "off"]).default("on"),
  /** The payment processor (server/payments/index.ts): the sandbox's test cards, or Stripe. Default: sandbox, and stripe in production. */
  PAYMENT_PROCESSOR: z.enum(["sandbox", "stripe"]).optional(),
  /** Stripe's secret API key, required when PAYMENT_PROCESSOR is stripe (checked by `npm start` and when the processor is first used). */
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key (sk_test_…, sk_live_…)").optional(),
  /** Stripe's publishable key, given to the hosted checkout and the saved-card page for Stripe.js (required there when PAYMENT_PROCESSOR is stripe). */
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_\w+$/, "must be a Stripe publishable key (pk_test_…, pk_live_…)").optional(),
  /** Another address for Stripe's API (a local Stripe-shaped server in tests); never set in production. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** The signing secret of the Stripe webhook endpoint (POST /stripe/webhook); events signed otherwise are refused. */
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, "must be a Stripe webhook signing secret (whsec_…)").optional(),
  /** The previous signing secret while Stripe rolls it (both are valid for up to 24 hours); remove it afterwards. */
  STRIPE_WEBHOOK_SECRET_PREVIOUS: z.string().regex(/^whsec_\w+$/, "must be a Stripe webhook signing secret (whsec_…)").optional(),
});

/** Every variable the service reads at start (the README's Configuration table lists each). */
export const configurationVariables = Object.keys(EnvSchema.shape);

export type Env = z.infer<typeof EnvSchema> & { PUBLIC_URL: string; APP_SECRET: string; PAYMENT_PROCESSOR: "sandbox" | "stripe" };

/** The error of one bad variable, in the shape parseEnv uses for all of them. */
export const invalidConfiguration = (variable: string, reason: string) => new Error(`Invalid configuration:\n  ${variable}: ${reason}`);

/** Parses the environment; throws one readable error listing every bad variable. */
export const parseEnv = (source: Record<string, string | undefined> = process.env): Env => {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.SERVICE_ENV === "production" && env.AUTH_RATE_LIMITS === "off") throw invalidConfiguration("AUTH_RATE_LIMITS", "cannot be off in production");
  if (env.SERVICE_ENV === "production" && env.CLIENT_METADATA_LOOPBACK === "on") throw invalidConfiguration("CLIENT_METADATA_LOOPBACK", "cannot be on in production");
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  const appSecret = env.APP_SECRET ?? embeddedSecret({ ...env, PUBLIC_URL: publicUrl });
  return { ...env, PAYMENT_PROCESSOR: paymentProcessor(env), PUBLIC_URL: publicUrl, APP_SECRET: appSecret };
};

/** Sandbox by default, Stripe in production, which refuses the sandbox's test cards (STRIPE_SECRET_KEY is checked by `npm start` and again by server/payments on first use). */
const paymentProcessor = (env: z.infer<typeof EnvSchema>) => {
  const processor = env.PAYMENT_PROCESSOR ?? (env.SERVICE_ENV === "production" ? "stripe" : "sandbox");
  if (env.SERVICE_ENV === "production" && processor === "sandbox") throw invalidConfiguration("PAYMENT_PROCESSOR", "the sandbox processor cannot take payments in production");
  if (env.SERVICE_ENV === "production" && env.STRIPE_API_BASE) throw invalidConfiguration("STRIPE_API_BASE", "only for a local Stripe-shaped server, never in production");
  return processor;
};

const isLoopback = (url: string) => {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
};

/**
 * The secret of a sandbox that only this machine can reach: 32 random bytes made on first start
 * and kept in DATA_DIR/app-secret (mode 0600), so the server, the ops CLI and later starts all
 * sign with the same value. Anything reachable from elsewhere, and production, must be given one.
 */
const embeddedSecret = (env: { SERVICE_ENV: string; PUBLIC_URL: string; DATA_DIR: string }) => {
  if (env.SERVICE_ENV === "production" || !isLoopback(env.PUBLIC_URL)) {
    throw invalidConfiguration(
      "APP_SECRET",
      `required when SERVICE_ENV is production or PUBLIC_URL is not a loopback address (${env.PUBLIC_URL}); ` +
        "set at least 32 random characters, e.g. `openssl rand -base64 32`",
    );
  }
  const file = path.join(env.DATA_DIR, "app-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(env.DATA_DIR, { recursive: true });
  // Written aside, then linked into place: a concurrent first start reads a whole file or links nothing.
  const staged = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(staged, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
  try {
    linkSync(staged, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(staged);
  }
  return readFileSync(file, "utf8").trim();
};

let cached: Env | undefined;
/** The validated environment of this process. */
export const env = (): Env => (cached ??= parseEnv());

/** Forgets the parsed environment; for launchers that set DATABASE_URL after choosing a database. */
export const resetEnv = () => {
  cached = undefined;
};
