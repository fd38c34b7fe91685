/**
 * `npm start` (what a deployment runs) with SERVICE_ENV=production and no SMTP_URL stops at once,
 * non-zero, naming SMTP_URL: before it builds the app, starts a database or writes anything. Every
 * other production setting is given and valid, so SMTP_URL must be the only variable named.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");

const npmStart = (env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const child: ChildProcessWithoutNullStreams = spawn("npm", ["start"], {
      cwd: root,
      env: env as unknown as NodeJS.ProcessEnv,
      stdio: "pipe",
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Should it ever start serving instead, stop it rather than hang the suite.
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });

/** Every production setting but SMTP_URL, valid: `npm start` refuses to start at once. */
const withoutSmtp = (dataDir: string, more: Record<string, string> = {}) =>
  npmStart({
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? tmpdir(),
    SERVICE_ENV: "production",
    PORT: "3299",
    DATA_DIR: dataDir,
    PUBLIC_URL: "https://shop.example.ca",
    APP_SECRET: "p".repeat(40),
    STRIPE_SECRET_KEY: "sk_live_abc123",
    STRIPE_PUBLISHABLE_KEY: "pk_live_abc123",
    STRIPE_WEBHOOK_SECRET: "whsec_abc123",
    METRICS_TOKEN: "m".repeat(40),
    // A database that does not exist: reaching for it would fail differently, and slowly.
    DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none",
    ...more,
  });

describe("npm start in production", () => {
  it("without SMTP_URL exits non-zero, quickly, with a message naming SMTP_URL and nothing else, having built and started nothing", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "production-start-"));
    const { code, output, ms } = await withoutSmtp(dataDir);
    expect(code, output).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toMatch(/Invalid configuration:\n {2}SMTP_URL: required in production/);
    expect([...output.matchAll(/^ {2}([A-Z_]+):/gm)].map((match) => match[1])).toEqual([
      "SMTP_URL",
    ]);
    expect(output).not.toContain("[start]");
    expect(readdirSync(dataDir)).toEqual([]);
    expect(ms).toBeLessThan(20_000);
  }, 40_000);

  it("NODE_FLAGS reaches node's command line: with --cpu-prof the process leaves its CPU profile, which the summary reads (docs/operations.md)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "production-start-"));
    const profiles = mkdtempSync(path.join(tmpdir(), "node-flags-"));
    const { code, output } = await withoutSmtp(dataDir, {
      NODE_FLAGS: `--cpu-prof --cpu-prof-dir=${profiles}`,
    });
    expect(code, output).not.toBe(0);
    const written = readdirSync(profiles).filter((name) => name.endsWith(".cpuprofile"));
    expect(written).toHaveLength(1);
    // As the operations guide runs it: how busy the thread was, then the top functions of a stretch.
    const summary = (...args: string[]) =>
      execFileSync(
        "npx",
        ["tsx", "bench/cpu-profile-summary.ts", path.join(profiles, written[0]), ...args],
        {
          cwd: root,
          encoding: "utf8",
        },
      );
    expect(summary()).toMatch(/^ {4}0 s {2}busy \d+%$/m);
    const stretch = summary("--from", "0", "--top", "3");
    expect(stretch).toMatch(/^0-Infinity s: [\d.]+ s sampled, the thread busy [\d.]+ s$/m);
    expect(stretch).toMatch(
      /--- self\n( +[\d.]+ s {2}\S.*\n){1,3}--- inclusive\n +[\d.]+ s {2}\(root\)/,
    );
  }, 60_000);
});
