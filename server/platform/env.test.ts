import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkLaunchable, parseEnv } from "./env";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "env-test-"));

describe("configuration", () => {
  it("defaults PORT to 3000 and PUBLIC_URL to http://localhost:PORT", () => {
    const DATA_DIR = dataDir();
    expect(parseEnv({ DATA_DIR })).toMatchObject({
      PORT: 3000,
      PUBLIC_URL: "http://localhost:3000",
      SERVICE_ENV: "sandbox",
    });
    expect(parseEnv({ DATA_DIR, PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(
      parseEnv({ PUBLIC_URL: "https://api.example.ca/", APP_SECRET: "s".repeat(40) }).PUBLIC_URL,
    ).toBe("https://api.example.ca");
  });
  it("stops on a wrong value with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(
      /DATABASE_URL: must be a postgresql:\/\/ URL/,
    );
    expect(() => parseEnv({ SERVICE_ENV: "staging" })).toThrow(/SERVICE_ENV/);
  });
});

describe("APP_SECRET", () => {
  it("is required in production and whenever PUBLIC_URL is not a loopback address", () => {
    const DATA_DIR = dataDir();
    expect(() => parseEnv({ DATA_DIR, SERVICE_ENV: "production" })).toThrow(/APP_SECRET: required/);
    expect(() => parseEnv({ DATA_DIR, PUBLIC_URL: "https://shop.example.ca" })).toThrow(
      /APP_SECRET: required/,
    );
    expect(() => parseEnv({ DATA_DIR, PUBLIC_URL: "http://192.168.1.20:3000" })).toThrow(
      /APP_SECRET: required/,
    );
    expect(() => parseEnv({ DATA_DIR, PUBLIC_URL: "http://localhost.evil.example:3000" })).toThrow(
      /APP_SECRET: required/,
    );
    expect(
      parseEnv({ DATA_DIR, PUBLIC_URL: "https://shop.example.ca", APP_SECRET: "k".repeat(40) })
        .APP_SECRET,
    ).toBe("k".repeat(40));
  });

  it("is generated once for a loopback sandbox, kept in DATA_DIR (mode 0600) and reused", () => {
    const DATA_DIR = dataDir();
    const first = parseEnv({ DATA_DIR }).APP_SECRET;
    expect(first).not.toBe("sandbox-only-secret-do-not-use-in-production-0000");
    expect(first.length).toBeGreaterThanOrEqual(43);
    const file = path.join(DATA_DIR, "app-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    for (const PUBLIC_URL of [
      "http://127.0.0.1:4000",
      "http://[::1]:3000",
      "http://localhost:3000",
    ]) {
      expect(parseEnv({ DATA_DIR, PUBLIC_URL }).APP_SECRET).toBe(first);
    }
    expect(parseEnv({ DATA_DIR: dataDir() }).APP_SECRET).not.toBe(first);
  });
});

/** A complete, safe production configuration; each test below removes or spoils one setting. */
const production = () => ({
  SERVICE_ENV: "production",
  DATA_DIR: dataDir(),
  PUBLIC_URL: "https://shop.example.ca",
  APP_SECRET: "p".repeat(40),
  SMTP_URL: "smtps://mailer:secret@smtp.example.ca:465",
  STRIPE_SECRET_KEY: "sk_live_abc123",
  STRIPE_PUBLISHABLE_KEY: "pk_live_abc123",
  STRIPE_WEBHOOK_SECRET: "whsec_abc123",
  METRICS_TOKEN: "m".repeat(40),
});

/** The variables named by the error parseEnv throws, in order. */
const refused = (source: Record<string, string | undefined>) => {
  try {
    parseEnv(source);
  } catch (error) {
    return [...(error as Error).message.matchAll(/^ {2}([A-Z_]+):/gm)].map((match) => match[1]);
  }
  return [];
};

describe("production refuses to start without safe settings", () => {
  it("accepts a complete production configuration", () => {
    expect(parseEnv(production())).toMatchObject({
      SERVICE_ENV: "production",
      PAYMENT_PROCESSOR: "stripe",
      PUBLIC_URL: "https://shop.example.ca",
      STRIPE_WEBHOOK_SECRET: "whsec_abc123",
    });
    expect(
      parseEnv({ ...production(), STRIPE_SECRET_KEY: "rk_live_restricted1" }).STRIPE_SECRET_KEY,
    ).toBe("rk_live_restricted1");
  });

  it("SMTP_URL: required (the copy email with the cancel link must reach the person)", () => {
    expect(refused({ ...production(), SMTP_URL: undefined })).toEqual(["SMTP_URL"]);
    expect(() => parseEnv({ ...production(), SMTP_URL: "" })).toThrow(
      /SMTP_URL: required in production/,
    );
  });

  it("SMTP_URL: the pool's counts in its query are whole numbers, pool true or false", () => {
    const smtp = "smtp://mailer:secret@smtp.example.ca:587";
    expect(parseEnv({ SMTP_URL: `${smtp}?maxConnections=10&rateLimit=50` }).SMTP_URL).toBe(
      `${smtp}?maxConnections=10&rateLimit=50`,
    );
    expect(parseEnv({ SMTP_URL: `${smtp}?pool=false` }).SMTP_URL).toBe(`${smtp}?pool=false`);
    for (const query of ["maxConnections=abc", "maxConnections=0", "rateLimit=-5", "pool=yes"])
      expect(() => parseEnv({ SMTP_URL: `${smtp}?${query}` })).toThrow(
        /SMTP_URL: its query's maxConnections, maxMessages, rateLimit and rateDelta must be whole numbers/,
      );
  });

  it("PUBLIC_URL: required, and https", () => {
    expect(refused({ ...production(), PUBLIC_URL: undefined })).toEqual(["PUBLIC_URL"]);
    expect(() => parseEnv({ ...production(), PUBLIC_URL: "http://shop.example.ca" })).toThrow(
      /PUBLIC_URL: must be an https:\/\/ URL in production/,
    );
    expect(refused({ ...production(), PUBLIC_URL: "http://localhost:3000" })).toEqual([
      "PUBLIC_URL",
    ]);
  });

  it("APP_SECRET: required, never generated", () => {
    const config = { ...production(), APP_SECRET: undefined };
    expect(refused(config)).toEqual(["APP_SECRET"]);
    expect(() => parseEnv(config)).toThrow(/APP_SECRET: required when SERVICE_ENV is production/);
    expect(() => readFileSync(path.join(config.DATA_DIR, "app-secret"))).toThrow(/ENOENT/);
  });

  it("STRIPE_SECRET_KEY: required, and live (sk_live_ or rk_live_); sk_test_ is refused", () => {
    expect(refused({ ...production(), STRIPE_SECRET_KEY: undefined })).toEqual([
      "STRIPE_SECRET_KEY",
    ]);
    expect(() =>
      parseEnv({
        ...production(),
        STRIPE_SECRET_KEY: "sk_test_abc123",
        STRIPE_PUBLISHABLE_KEY: "pk_test_abc123",
      }),
    ).toThrow(/STRIPE_SECRET_KEY: a test key takes no real payments/);
    expect(refused({ ...production(), STRIPE_SECRET_KEY: "rk_test_abc123" })).toEqual([
      "STRIPE_SECRET_KEY",
      "STRIPE_PUBLISHABLE_KEY",
    ]);
    expect(refused({ ...production(), STRIPE_SECRET_KEY: "pk_live_abc123" })).toEqual([
      "STRIPE_SECRET_KEY",
    ]);
  });

  it("STRIPE_PUBLISHABLE_KEY: required, and live; pk_test_ is refused", () => {
    expect(refused({ ...production(), STRIPE_PUBLISHABLE_KEY: undefined })).toEqual([
      "STRIPE_PUBLISHABLE_KEY",
    ]);
    expect(() => parseEnv({ ...production(), STRIPE_PUBLISHABLE_KEY: "pk_test_abc123" })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: a test key takes no real payments/,
    );
    expect(() => parseEnv({ ...production(), STRIPE_PUBLISHABLE_KEY: "sk_live_abc123" })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: must be a Stripe publishable key/,
    );
  });

  it("STRIPE_WEBHOOK_SECRET: required; it and its previous value during a rotation are single whsec_ values", () => {
    expect(refused({ ...production(), STRIPE_WEBHOOK_SECRET: undefined })).toEqual([
      "STRIPE_WEBHOOK_SECRET",
    ]);
    expect(
      parseEnv({ ...production(), STRIPE_WEBHOOK_SECRET_PREVIOUS: "whsec_old456" })
        .STRIPE_WEBHOOK_SECRET_PREVIOUS,
    ).toBe("whsec_old456");
    expect(refused({ ...production(), STRIPE_WEBHOOK_SECRET: "whsec_a,whsec_b" })).toEqual([
      "STRIPE_WEBHOOK_SECRET",
    ]);
    expect(refused({ ...production(), STRIPE_WEBHOOK_SECRET_PREVIOUS: "secret" })).toEqual([
      "STRIPE_WEBHOOK_SECRET_PREVIOUS",
    ]);
  });

  it("INNGEST_SIGNING_KEY: required whenever Inngest is configured; a dev server is refused", () => {
    expect(parseEnv(production()).INNGEST_SIGNING_KEY).toBeUndefined();
    expect(refused({ ...production(), INNGEST_EVENT_KEY: "evt_key" })).toEqual([
      "INNGEST_SIGNING_KEY",
    ]);
    expect(
      refused({ ...production(), INNGEST_BASE_URL: "https://inngest.internal.example.ca" }),
    ).toEqual(["INNGEST_SIGNING_KEY"]);
    expect(refused({ ...production(), INNGEST_DEV: "1" })).toEqual([
      "INNGEST_DEV",
      "INNGEST_SIGNING_KEY",
    ]);
    expect(
      parseEnv({
        ...production(),
        INNGEST_EVENT_KEY: "evt_key",
        INNGEST_SIGNING_KEY: "signkey-prod-abc",
      }).INNGEST_SIGNING_KEY,
    ).toBe("signkey-prod-abc");
  });

  it("names every missing or unsafe variable in one message, not just the first", () => {
    const DATA_DIR = dataDir();
    expect(refused({ SERVICE_ENV: "production", DATA_DIR, INNGEST_EVENT_KEY: "evt_key" })).toEqual([
      "SMTP_URL",
      "PUBLIC_URL",
      "APP_SECRET",
      "STRIPE_SECRET_KEY",
      "STRIPE_PUBLISHABLE_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "INNGEST_SIGNING_KEY",
      "METRICS_TOKEN",
    ]);
    // A malformed value is named once, by its format, beside the production rules of the others.
    expect(
      refused({
        ...production(),
        SMTP_URL: "mail.example.ca",
        STRIPE_SECRET_KEY: "sk_test_abc",
        AUTH_RATE_LIMITS: "off",
      }),
    ).toEqual(["SMTP_URL", "STRIPE_SECRET_KEY", "AUTH_RATE_LIMITS", "STRIPE_PUBLISHABLE_KEY"]);
  });

  it("METRICS_TOKEN: required in production, at least 32 characters anywhere; optional in the sandbox (/metrics is then open)", () => {
    expect(refused({ ...production(), METRICS_TOKEN: undefined })).toEqual(["METRICS_TOKEN"]);
    expect(() => parseEnv({ ...production(), METRICS_TOKEN: undefined })).toThrow(
      /METRICS_TOKEN: required in production/,
    );
    expect(refused({ DATA_DIR: dataDir(), METRICS_TOKEN: "short" })).toEqual(["METRICS_TOKEN"]);
    expect(parseEnv({ DATA_DIR: dataDir() }).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ DATA_DIR: dataDir(), LOG_LEVEL: "debug" }).LOG_LEVEL).toBe("debug");
    expect(refused({ DATA_DIR: dataDir(), LOG_LEVEL: "verbose" })).toEqual(["LOG_LEVEL"]);
  });

  it("SEED_ITEMS: 5,000 made-up items in the sandbox by default; none in production, where a seed is refused", () => {
    expect(parseEnv({ DATA_DIR: dataDir() }).SEED_ITEMS).toBe(5000);
    expect(parseEnv({ DATA_DIR: dataDir(), SEED_ITEMS: "0" }).SEED_ITEMS).toBe(0);
    expect(parseEnv(production()).SEED_ITEMS).toBe(0);
    expect(parseEnv({ ...production(), SEED_ITEMS: "0" }).SEED_ITEMS).toBe(0);
    expect(refused({ ...production(), SEED_ITEMS: "5000" })).toEqual(["SEED_ITEMS"]);
  });

  it("outside production the Stripe webhook and publishable keys are optional, but test and live keys are not mixed", () => {
    expect(parseEnv({ DATA_DIR: dataDir() }).STRIPE_WEBHOOK_SECRET).toBeUndefined();
    expect(
      parseEnv({
        DATA_DIR: dataDir(),
        PAYMENT_PROCESSOR: "stripe",
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
      }).STRIPE_PUBLISHABLE_KEY,
    ).toBe("pk_test_abc");
    expect(
      refused({
        DATA_DIR: dataDir(),
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
      }),
    ).toEqual(["STRIPE_PUBLISHABLE_KEY"]);
  });
});

describe("what `npm start` checks beyond parsing", () => {
  it("the Stripe processor needs its secret and publishable keys, named together", () => {
    const config = parseEnv({ DATA_DIR: dataDir(), PAYMENT_PROCESSOR: "stripe" });
    expect(() => checkLaunchable(config)).toThrow(
      /STRIPE_SECRET_KEY: required when PAYMENT_PROCESSOR is stripe\n {2}STRIPE_PUBLISHABLE_KEY: required/,
    );
    expect(() =>
      checkLaunchable(
        parseEnv({
          DATA_DIR: dataDir(),
          PAYMENT_PROCESSOR: "stripe",
          STRIPE_SECRET_KEY: "sk_test_abc",
          STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
        }),
      ),
    ).not.toThrow();
    expect(() => checkLaunchable(parseEnv({ DATA_DIR: dataDir() }))).not.toThrow();
  });
});
