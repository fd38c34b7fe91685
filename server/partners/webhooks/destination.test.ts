/** Where webhooks may go: URL rules per environment, and the address check made after resolving. */
import { describe, expect, it } from "vitest";
import {
  destinationRulesFor,
  endpointUrlProblem,
  isBlockedAddress,
  resolveDestination,
} from "./destination";
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
});

describe("addresses", () => {
  it("public-only refuses loopback, private, link-local, CGNAT, multicast and IPv4-mapped private addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
      "::ffff:a00:1",
      "::ffff:7f00:1",
    ]) {
      expect(isBlockedAddress(address, "public-only"), address).toBe(true);
    }
    for (const address of [
      "93.184.216.34",
      "2606:2800:220:1:248:1893:25c8:1946",
      "::ffff:93.184.216.34",
    ])
      expect(isBlockedAddress(address, "public-only"), address).toBe(false);
  });

  it("a developer's machine allows loopback and private addresses, never link-local (cloud metadata)", () => {
    expect(isBlockedAddress("127.0.0.1", "developer-machine")).toBe(false);
    expect(isBlockedAddress("10.1.2.3", "developer-machine")).toBe(false);
    expect(isBlockedAddress("169.254.169.254", "developer-machine")).toBe(true);
    expect(isBlockedAddress("fe80::1", "developer-machine")).toBe(true);
  });

  it("resolves before checking: localhost is refused when public-only, an IP literal is checked as is", async () => {
    await expect(resolveDestination("localhost", "public-only")).rejects.toThrow(/never sent to/);
    await expect(resolveDestination("[::1]", "public-only")).rejects.toThrow(/never sent to/);
    await expect(resolveDestination("127.0.0.1", "developer-machine")).resolves.toEqual({
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
