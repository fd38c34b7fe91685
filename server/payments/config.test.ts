/** Which processor the configuration chooses: the sandbox by default, Stripe in production, never the sandbox there. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../platform/env";
import { productionSettings } from "../testing/production-env";

const base = () => ({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "payments-config-")) });
const production = () => ({ ...base(), ...productionSettings });

describe("payment processor configuration", () => {
  it("is the sandbox by default and Stripe by default in production", () => {
    expect(parseEnv(base()).PAYMENT_PROCESSOR).toBe("sandbox");
    expect(parseEnv(production()).PAYMENT_PROCESSOR).toBe("stripe");
    expect(
      parseEnv({
        ...base(),
        PAYMENT_PROCESSOR: "stripe",
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_API_BASE: "http://127.0.0.1:12111",
      }),
    ).toMatchObject({ PAYMENT_PROCESSOR: "stripe", STRIPE_API_BASE: "http://127.0.0.1:12111" });
  });

  it("refuses the sandbox processor and another Stripe address in production, and a malformed key", () => {
    expect(() => parseEnv({ ...production(), PAYMENT_PROCESSOR: "sandbox" })).toThrow(
      /PAYMENT_PROCESSOR: the sandbox processor cannot take payments in production/,
    );
    expect(() =>
      parseEnv({
        ...production(),
        STRIPE_SECRET_KEY: "sk_live_abc",
        STRIPE_API_BASE: "http://127.0.0.1:12111",
      }),
    ).toThrow(/STRIPE_API_BASE/);
    expect(() => parseEnv({ ...base(), STRIPE_SECRET_KEY: "pk_test_abc" })).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
  });
});

describe("how long an attempt may take", () => {
  it("settlement waits longer than the slowest Stripe call the client can make (review H1)", async () => {
    const { attemptTimeoutMs } = await import("./payment-steps");
    const { slowestCallMs, stripeClientSettings } = await import("./processor-budget");
    expect(slowestCallMs(stripeClientSettings)).toBe(85_000);
    expect(attemptTimeoutMs).toBeGreaterThan(slowestCallMs(stripeClientSettings));
  });
});
