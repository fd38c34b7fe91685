/**
 * The service's configuration, validated once at start. A wrong value stops the process with a
 * message naming the variable, rather than failing later on first use.
 */
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
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Signs email links and sessions. Required in production; sandbox falls back to a fixed development value. */
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Which CatalogSearch serves: the in-memory index (built at start) or the PostgreSQL reference. */
  SEARCH_IMPL: z.enum(["memory", "postgres"]).default("memory"),
  /** Serve /api/v1 and /oauth/token from node:http in front of Next (same handlers), or all through Next. */
  LEAN_API: z.enum(["on", "off"]).default("on"),
});

export type Env = z.infer<typeof EnvSchema> & { PUBLIC_URL: string; APP_SECRET: string };

/** Parses the environment; throws one readable error listing every bad variable. */
export const parseEnv = (source: Record<string, string | undefined> = process.env): Env => {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.SERVICE_ENV === "production" && !env.APP_SECRET) throw new Error("Invalid configuration:\n  APP_SECRET: required when SERVICE_ENV is production");
  return {
    ...env,
    APP_SECRET: env.APP_SECRET ?? "sandbox-only-secret-do-not-use-in-production-0000",
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
  };
};

let cached: Env | undefined;
/** The validated environment of this process. */
export const env = (): Env => (cached ??= parseEnv());

/** Forgets the parsed environment; for launchers that set DATABASE_URL after choosing a database. */
export const resetEnv = () => {
  cached = undefined;
};
