import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "env-test-"));

describe("configuration", () => {
  it("defaults PORT to 3000 and PUBLIC_URL to http://localhost:PORT", () => {
    const DATA_DIR = dataDir();
    expect(parseEnv({ DATA_DIR })).toMatchObject({ PORT: 3000, PUBLIC_URL: "http://localhost:3000", SERVICE_ENV: "sandbox" });
    expect(parseEnv({ DATA_DIR, PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(parseEnv({ PUBLIC_URL: "https://api.example.ca/", APP_SECRET: "s".repeat(40) }).PUBLIC_URL).toBe("https://api.example.ca");
  });
  it("stops on a wrong value with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(() => parseEnv({ SERVICE_ENV: "staging" })).toThrow(/SERVICE_ENV/);
  });
});

describe("APP_SECRET", () => {
  it("is required in production and whenever PUBLIC_URL is not a loopback address", () => {
    const DATA_DIR = dataDir();
    expect(() => parseEnv({ DATA_DIR, SERVICE_ENV: "production" })).toThrow(/APP_SECRET: required/);
    expect(() => parseEnv({ DATA_DIR, PUBLIC_URL: "https://shop.example.ca" })).toThrow(/APP_SECRET: required/);
    expect(() => parseEnv({ DATA_DIR, PUBLIC_URL: "http://192.168.1.20:3000" })).toThrow(/APP_SECRET: required/);
    expect(() => parseEnv({ DATA_DIR, PUBLIC_URL: "http://localhost.evil.example:3000" })).toThrow(/APP_SECRET: required/);
    expect(parseEnv({ DATA_DIR, PUBLIC_URL: "https://shop.example.ca", APP_SECRET: "k".repeat(40) }).APP_SECRET).toBe("k".repeat(40));
  });

  it("is generated once for a loopback sandbox, kept in DATA_DIR (mode 0600) and reused", () => {
    const DATA_DIR = dataDir();
    const first = parseEnv({ DATA_DIR }).APP_SECRET;
    expect(first).not.toBe("sandbox-only-secret-do-not-use-in-production-0000");
    expect(first.length).toBeGreaterThanOrEqual(43);
    const file = path.join(DATA_DIR, "app-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    for (const PUBLIC_URL of ["http://127.0.0.1:4000", "http://[::1]:3000", "http://localhost:3000"]) {
      expect(parseEnv({ DATA_DIR, PUBLIC_URL }).APP_SECRET).toBe(first);
    }
    expect(parseEnv({ DATA_DIR: dataDir() }).APP_SECRET).not.toBe(first);
  });
});
