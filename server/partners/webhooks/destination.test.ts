/** Where webhooks may go: URL rules per environment, and the address check made after resolving. */
import { describe, expect, it } from "vitest";
import { destinationRulesFor, endpointUrlProblem, resolveDestination } from "./destination";
import { nextAttemptAt, retryDelayMs, shouldDisable } from "./retry-schedule";

describe("rules", () => {
  it("only a sandbox whose PUBLIC_URL is loopback (a developer's machine) relaxes the production blocklist", () => {
    expect(
      destinationRulesFor({ environment: "sandbox", publicUrl: "http://localhost:3000" }),
    ).toBe("developer-machine");
    expect(
      destinationRulesFor({ environment: "sandbox", publicUrl: "http://127.0.0.1:3224" }),
    ).toBe("developer-machine");
    expect(destinationRulesFor({ environment: "sandbox", publicUrl: "http://[::1]:3000" })).toBe(
      "developer-machine",
    );
    expect(
      destinationRulesFor({ environment: "sandbox", publicUrl: "https://sandbox.shop.example" }),
    ).toBe("public-only");
    expect(destinationRulesFor({ environment: "sandbox", publicUrl: "http://10.0.0.5:3000" })).toBe(
      "public-only",
    );
    expect(
      destinationRulesFor({ environment: "production", publicUrl: "http://localhost:3000" }),
    ).toBe("public-only");
  });
});

describe("endpoint URLs", () => {
  it("public-only takes https only; a developer's machine also http to a loopback host; never credentials or fragments", () => {
    expect(endpointUrlProblem("https://partner.example/hooks", "public-only")).toBeNull();
    expect(endpointUrlProblem("http://partner.example/hooks", "public-only")).toBe("must be https");
    expect(endpointUrlProblem("http://127.0.0.1:4170/hooks", "public-only")).toBe("must be https");
    expect(endpointUrlProblem("http://127.0.0.1:4170/hooks", "developer-machine")).toBeNull();
    expect(endpointUrlProblem("http://localhost/hooks", "developer-machine")).toBeNull();
    expect(endpointUrlProblem("http://[::1]:4170/hooks", "developer-machine")).toBeNull();
    expect(endpointUrlProblem("http://10.0.0.5/hooks", "developer-machine")).toContain("https");
    expect(endpointUrlProblem("https://user:pw@partner.example/hooks", "public-only")).toContain(
      "user name",
    );
    expect(endpointUrlProblem("https://partner.example/hooks#x", "public-only")).toContain(
      "fragment",
    );
    expect(endpointUrlProblem("ftp://partner.example/", "public-only")).toBe("must be https");
    expect(endpointUrlProblem("not a url", "public-only")).toBe("must be an absolute URL");
  });

  it("a host that is an address webhooks are never sent to is refused at registration (B2-24); a name is checked at each attempt", () => {
    for (const url of [
      "https://169.254.169.254/latest",
      "https://[::ffff:a9fe:a9fe]/x",
      "https://10.0.0.5/hooks",
      "https://127.0.0.1/hooks",
      "https://localhost/hooks",
    ])
      expect(endpointUrlProblem(url, "public-only"), url).toMatch(
        /^must not be a (link-local|private or reserved|loopback) address: webhooks are never sent there$/,
      );
    expect(endpointUrlProblem("https://169.254.169.254/latest", "developer-machine")).toBe(
      "must not be a link-local address: webhooks are never sent there",
    );
    expect(endpointUrlProblem("https://10.0.0.5/hooks", "developer-machine")).toBeNull();
    expect(endpointUrlProblem("https://93.184.216.34/hooks", "public-only")).toBeNull();
    expect(endpointUrlProblem("https://internal.example/hooks", "public-only")).toBeNull();
  });
});

describe("addresses (the ranges: server/platform/http/outbound-host.test.ts)", () => {
  const signal = () => AbortSignal.timeout(2_000);
  const isRefused = (host: string, rules: "public-only" | "developer-machine") =>
    resolveDestination(host, rules, signal()).then(
      () => false,
      (error: Error) => /an address webhooks are never sent to/.test(error.message),
    );

  it("public-only refuses loopback, private and link-local addresses, in any spelling", async () => {
    for (const host of [
      "127.0.0.1",
      "10.1.2.3",
      "169.254.169.254",
      "[::1]",
      "[::ffff:a00:1]",
      "localhost",
    ])
      expect(await isRefused(host, "public-only"), host).toBe(true);
    for (const host of ["93.184.216.34", "[::ffff:93.184.216.34]"])
      expect(await isRefused(host, "public-only"), host).toBe(false);
    await expect(resolveDestination("localhost", "public-only", signal())).rejects.toThrow(
      "localhost resolves to 127.0.0.1, an address webhooks are never sent to",
    );
  });

  it("a developer's machine allows loopback and private addresses, never link-local (cloud metadata)", async () => {
    for (const host of ["127.0.0.1", "10.1.2.3", "localhost"])
      expect(await isRefused(host, "developer-machine"), host).toBe(false);
    for (const host of ["169.254.169.254", "[fe80::1]"])
      expect(await isRefused(host, "developer-machine"), host).toBe(true);
    await expect(resolveDestination("127.0.0.1", "developer-machine", signal())).resolves.toEqual({
      address: "127.0.0.1",
      family: 4,
    });
  });
});

describe("retry schedule", () => {
  it("backs off exponentially to 12 hours, stops 3 days after the event, disables after 5 days of failures", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5_000, 20_000, 80_000, 320_000]);
    expect(retryDelayMs(20)).toBe(12 * 3_600_000);
    const created = new Date("2026-11-20T00:00:00Z");
    expect(nextAttemptAt({ failedAttempts: 1, now: created, eventCreatedAt: created })).toEqual(
      new Date(created.getTime() + 5_000),
    );
    expect(
      nextAttemptAt({
        failedAttempts: 10,
        now: new Date(created.getTime() + 2.8 * 86_400_000),
        eventCreatedAt: created,
      }),
    ).toBeNull();
    expect(shouldDisable(created, new Date(created.getTime() + 5 * 86_400_000 - 1))).toBe(false);
    expect(shouldDisable(created, new Date(created.getTime() + 5 * 86_400_000))).toBe(true);
  });
});
