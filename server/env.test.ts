import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

describe("configuration", () => {
  it("defaults PORT to 3000 and PUBLIC_URL to http://localhost:PORT", () => {
    expect(parseEnv({})).toMatchObject({ PORT: 3000, PUBLIC_URL: "http://localhost:3000", SERVICE_ENV: "sandbox" });
    expect(parseEnv({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(parseEnv({ PUBLIC_URL: "https://api.example.ca/" }).PUBLIC_URL).toBe("https://api.example.ca");
  });
  it("stops on a wrong value with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(() => parseEnv({ SERVICE_ENV: "staging" })).toThrow(/SERVICE_ENV/);
  });
});
