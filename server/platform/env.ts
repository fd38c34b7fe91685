/**
 * The service's configuration, validated once at start. A wrong value stops the process with a
 * message naming the variable, rather than failing later on first use. With SERVICE_ENV=production
 * every missing or unsafe setting is named in the same message (productionProblems), so an
 * operator fixes them all in one go.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const webhookSecret = z
  .string()
  .regex(/^whsec_[^\s,]+$/, "must be one Stripe webhook signing secret (whsec_…, no commas)");

/** Inngest is configured (server/platform/jobs/client.ts sends events) when an event key or a dev server is given. */
export const isInngestConfiguredIn = (source: Record<string, string | undefined>) =>
  Boolean(source.INNGEST_EVENT_KEY || source.INNGEST_DEV);

/**
 * The SMTP pool's counts that SMTP_URL's query may set (server/platform/mail/sender.ts). Nodemailer
 * takes any text there, and a count that is not a number makes the pool open no connection: every
 * email would wait unsent, with no error to retry on.
 */
const smtpCounts = ["maxConnections", "maxMessages", "rateLimit", "rateDelta"];
const hasValidSmtpQuery = (url: string) => {
  const query = URL.canParse(url) ? new URL(url).searchParams : undefined;
  return (
    query !== undefined &&
    smtpCounts.every((name) => /^[1-9]\d{0,6}$/.test(query.get(name) ?? "1")) &&
    ["true", "false"].includes(query.get("pool") ?? "true")
  );
};

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: "must be an smtp:// URL", abort: true })
    .refine(
      hasValidSmtpQuery,
      "its query's maxConnections, maxMessages, rateLimit and rateDelta must be whole numbers of at least 1, and pool true or false",
    )
    .optional(),
  SERVICE_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  DATA_DIR: z.string().default(".data"),
  SEED_ITEMS: z.coerce.number().int().min(0).max(2_000_000).optional(),
  /**
   * Signs email links, consent forms and session cookies. Required in production and whenever
   * PUBLIC_URL is not a loopback address; otherwise generated once and kept in DATA_DIR/app-secret.
   */
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** How many proxies of ours stand in front: X-Forwarded-For is read only then (see server/platform/http/client-ip.ts). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Per-address and per-client limits of sign-in, sign-up, email links and /oauth/*; `off` only for load tests, never in production. */
  AUTH_RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** Sandbox test allowance: client metadata documents may be fetched from loopback addresses (server/oauth/client-metadata-fetch.ts). */
  CLIENT_METADATA_LOOPBACK: z.enum(["on", "off"]).default("off"),
  /** Open (awaiting payment) checkouts the public MCP connector's callers at one address may hold together (429 too_many_open_checkouts past it); an assistant platform's many users share its few addresses. */
  MCP_OPEN_CHECKOUTS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Units (item quantities) one partner client's open checkouts may hold reserved together (429 too_many_open_checkouts past it). */
  CLIENT_OPEN_RESERVED_UNITS: z.coerce.number().int().min(1).max(10_000_000).default(1000),
  /** Which CatalogSearch serves: the in-memory index (built at start) or the PostgreSQL reference. */
  SEARCH_IMPL: z.enum(["memory", "postgres"]).default("memory"),
  /**
   * After SIGTERM, how long the instance keeps serving (with /readyz at 503 and `Connection: close`)
   * before it stops accepting connections: longer than the balancer needs to see the 503 (its check
   * interval times its fall count, plus one interval). 0 stops accepting at once.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** After the drain, how long requests in flight and background work may take to finish before they are cut (exit 1). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** Serve /api/v1 and /oauth/token from node:http in front of Next (same handlers), or all through Next. */
  LEAN_API: z.enum(["on", "off"]).default("on"),
  /** The payment processor (server/payments/index.ts): the sandbox's test cards, or Stripe. Default: sandbox, and stripe in production. */
  PAYMENT_PROCESSOR: z.enum(["sandbox", "stripe"]).optional(),
  /** Stripe's secret API key, required when PAYMENT_PROCESSOR is stripe (checked by `npm start` and when the processor is first used); a live one in production. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key (sk_test_…, sk_live_…)")
    .optional(),
  /** Stripe's publishable key, given to the browser for the Payment Element; required with the stripe processor, a live one in production. */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, "must be a Stripe publishable key (pk_test_…, pk_live_…)")
    .optional(),
  /** Verifies Stripe's webhook signatures (POST /stripe/webhook); required in production. One value: no commas. */
  STRIPE_WEBHOOK_SECRET: webhookSecret.optional(),
  /** The webhook secret being rotated out: events signed with it are still accepted until it is removed. */
  STRIPE_WEBHOOK_SECRET_PREVIOUS: webhookSecret.optional(),
  /** Stripe requests a second all instances send together (server/payments/stripe-pace.ts); default 80% of Stripe's limit: 80 with a live key, 20 with a test key. */
  STRIPE_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).optional(),
  /** Stripe requests a second to one endpoint (a method and path: POST /v1/payment_intents); default 20, 80% of Stripe's 25. */
  STRIPE_ENDPOINT_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).optional(),
  /** Another address for Stripe's API (a local Stripe-shaped server in tests); never set in production. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** Inngest (server/platform/jobs/client.ts): events are sent when INNGEST_EVENT_KEY or INNGEST_DEV is set; INNGEST_BASE_URL points at a self-hosted server. */
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  INNGEST_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Verifies that requests to /api/inngest come from Inngest; required whenever Inngest is configured in production. */
  INNGEST_SIGNING_KEY: z.string().optional(),
  /** The least severe log lines written (server/platform/observability/log.ts); JSON lines on stdout, pretty on a terminal. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** The bearer token GET /metrics asks for (server/edges/http/metrics-endpoint.ts); required in production, /metrics is open without it in the sandbox. */
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Traces (docs/adr/0113-traces.md): an OTLP/HTTP collector's base URL (spans go to <url>/v1/traces).
   * Unset, tracing is off and nothing of OpenTelemetry is loaded. The standard OTEL_* variables
   * tune it (OTEL_TRACES_SAMPLER, OTEL_BSP_SCHEDULE_DELAY, OTEL_EXPORTER_OTLP_HEADERS…).
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The service name on every span (default shopping-api). */
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
});

/** Every variable the service reads at start (the README's Configuration table lists each). */
export const configurationVariables = Object.keys(EnvSchema.shape);

export type Env = z.infer<typeof EnvSchema> & {
  SEED_ITEMS: number;
  PUBLIC_URL: string;
  APP_SECRET: string;
  PAYMENT_PROCESSOR: "sandbox" | "stripe";
};

/** The error of one bad variable, in the shape parseEnv uses for all of them. */
const invalidConfiguration = (variable: string, reason: string) =>
  configurationError([[variable, reason]]);

type Problem = [variable: string, reason: string];
const configurationError = (problems: Problem[]) =>
  new Error(
    `Invalid configuration:\n${problems.map(([variable, reason]) => `  ${variable}: ${reason}`).join("\n")}`,
  );

const appSecretReason = (publicUrl: string) =>
  `required when SERVICE_ENV is production or PUBLIC_URL is not a loopback address (${publicUrl}); set at least 32 random characters, e.g. \`openssl rand -base64 32\``;

/**
 * What production refuses, read from the raw settings so that every problem is found at once
 * (a malformed value is reported by the schema instead). Each rule guards money or a person:
 * - SMTP_URL: the copy email with a purchase's cancel link must reach the person before the card is
 *   charged (DESIGN.md, notice_undelivered); the sandbox mailbox reaches nobody.
 * - PUBLIC_URL over https: session cookies, email links and the OAuth issuer are built from it.
 * - APP_SECRET: signs sessions, email links and consent forms; never generated in production.
 * - Stripe: live keys only (a test key takes no real money), the publishable key for the Payment
 *   Element, and the webhook secret, without which no webhook can be verified.
 * - INNGEST_SIGNING_KEY whenever Inngest is configured: /api/inngest runs jobs on request, and only
 *   Inngest may ask; INNGEST_DEV (a dev server, which skips request signing) is refused.
 * - METRICS_TOKEN: /metrics would otherwise tell anyone the traffic, the partners' operations and the backlog.
 */
const productionProblems = (source: Record<string, string | undefined>): Problem[] => {
  const problems: Problem[] = [];
  const refuse = (variable: string, reason: string) => problems.push([variable, reason]);
  if (!source.SMTP_URL)
    refuse(
      "SMTP_URL",
      "required in production: without an SMTP server the copy email with a purchase's cancel link reaches nobody",
    );
  if (!source.PUBLIC_URL)
    refuse("PUBLIC_URL", "required in production (the https:// origin people and apps reach)");
  else if (!source.PUBLIC_URL.startsWith("https://"))
    refuse("PUBLIC_URL", "must be an https:// URL in production");
  if (!source.APP_SECRET) refuse("APP_SECRET", appSecretReason(source.PUBLIC_URL ?? "not set"));
  if (source.PAYMENT_PROCESSOR === "sandbox")
    refuse("PAYMENT_PROCESSOR", "the sandbox processor cannot take payments in production");
  if (!source.STRIPE_SECRET_KEY)
    refuse("STRIPE_SECRET_KEY", "required in production (sk_live_… or rk_live_…)");
  else if (!/^(sk|rk)_live_/.test(source.STRIPE_SECRET_KEY))
    refuse(
      "STRIPE_SECRET_KEY",
      "a test key takes no real payments: production needs sk_live_… or rk_live_…",
    );
  if (!source.STRIPE_PUBLISHABLE_KEY)
    refuse(
      "STRIPE_PUBLISHABLE_KEY",
      "required in production (pk_live_…), for Stripe's Payment Element",
    );
  else if (!source.STRIPE_PUBLISHABLE_KEY.startsWith("pk_live_"))
    refuse(
      "STRIPE_PUBLISHABLE_KEY",
      "a test key takes no real payments: production needs pk_live_…",
    );
  if (!source.STRIPE_WEBHOOK_SECRET)
    refuse(
      "STRIPE_WEBHOOK_SECRET",
      "required in production (whsec_…): Stripe's webhooks cannot be verified without it",
    );
  if (source.STRIPE_API_BASE)
    refuse("STRIPE_API_BASE", "only for a local Stripe-shaped server, never in production");
  if (source.INNGEST_DEV)
    refuse(
      "INNGEST_DEV",
      "a development server skips request signing: never in production (set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY)",
    );
  if ((isInngestConfiguredIn(source) || source.INNGEST_BASE_URL) && !source.INNGEST_SIGNING_KEY) {
    refuse(
      "INNGEST_SIGNING_KEY",
      "required in production when Inngest is configured (INNGEST_EVENT_KEY, INNGEST_DEV or INNGEST_BASE_URL): only Inngest may call /api/inngest",
    );
  }
  if (source.AUTH_RATE_LIMITS === "off") refuse("AUTH_RATE_LIMITS", "cannot be off in production");
  if (source.CLIENT_METADATA_LOOPBACK === "on")
    refuse("CLIENT_METADATA_LOOPBACK", "cannot be on in production");
  if (source.SEED_ITEMS !== undefined && source.SEED_ITEMS !== "0")
    refuse(
      "SEED_ITEMS",
      "must be 0 or unset in production: the seeded catalogue is made up and must never be sold",
    );
  if (!source.METRICS_TOKEN)
    refuse(
      "METRICS_TOKEN",
      "required in production: GET /metrics shows the service's traffic and backlog to whoever asks without it; set at least 32 random characters",
    );
  return problems;
};

/** A test publishable key with a live secret key (or the reverse) would show one Stripe account's form and charge another's. */
const stripeKeyProblems = (source: Record<string, string | undefined>): Problem[] => {
  const secretMode = /^(?:sk|rk)_(test|live)_/.exec(source.STRIPE_SECRET_KEY ?? "")?.[1];
  const publishableMode = /^pk_(test|live)_/.exec(source.STRIPE_PUBLISHABLE_KEY ?? "")?.[1];
  if (secretMode && publishableMode && secretMode !== publishableMode)
    return [
      [
        "STRIPE_PUBLISHABLE_KEY",
        `a ${publishableMode} key with a ${secretMode} secret key: both must be test keys or both live`,
      ],
    ];
  return [];
};

/** Parses the environment; throws one readable error listing every bad variable. */
export const parseEnv = (source: Record<string, string | undefined> = process.env): Env => {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== ""),
  ) as Record<string, string | undefined>;
  const result = EnvSchema.safeParse(cleaned);
  const problems: Problem[] = result.success
    ? []
    : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
  const malformed = new Set(problems.map(([variable]) => variable));
  const rules = [
    ...(cleaned.SERVICE_ENV === "production" ? productionProblems(cleaned) : []),
    ...stripeKeyProblems(cleaned),
  ];
  problems.push(...rules.filter(([variable]) => !malformed.has(variable)));
  if (problems.length > 0 || !result.success) throw configurationError(problems);
  const env = result.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  const appSecret = env.APP_SECRET ?? embeddedSecret({ ...env, PUBLIC_URL: publicUrl });
  return {
    ...env,
    PAYMENT_PROCESSOR:
      env.PAYMENT_PROCESSOR ?? (env.SERVICE_ENV === "production" ? "stripe" : "sandbox"),
    // The sandbox seeds its made-up catalogue into an empty database; production never does.
    SEED_ITEMS: env.SEED_ITEMS ?? (env.SERVICE_ENV === "production" ? 0 : 5000),
    PUBLIC_URL: publicUrl,
    APP_SECRET: appSecret,
  };
};

/**
 * What `npm start` checks beyond parseEnv: the Stripe processor needs its keys (the secret one for
 * the API, the publishable one for the Payment Element). Tests that never pay may run without them;
 * a real deployment would only fail at the first payment. Throws one error naming each.
 */
export const checkLaunchable = (config: Env) => {
  if (config.PAYMENT_PROCESSOR !== "stripe") return;
  const problems: Problem[] = [];
  if (!config.STRIPE_SECRET_KEY)
    problems.push(["STRIPE_SECRET_KEY", "required when PAYMENT_PROCESSOR is stripe"]);
  if (!config.STRIPE_PUBLISHABLE_KEY)
    problems.push([
      "STRIPE_PUBLISHABLE_KEY",
      "required when PAYMENT_PROCESSOR is stripe (Stripe's Payment Element needs it)",
    ]);
  if (problems.length > 0) throw configurationError(problems);
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
  if (env.SERVICE_ENV === "production" || !isLoopback(env.PUBLIC_URL))
    throw invalidConfiguration("APP_SECRET", appSecretReason(env.PUBLIC_URL));
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
