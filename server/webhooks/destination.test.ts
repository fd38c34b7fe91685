/** Where webhooks may go: URL rules per environment, and the address check made after resolving. */
import { describe, expect, it } from "vitest";
import { endpointUrlProblem, isBlockedAddress, resolveDestination } from "./destination";
import { nextAttemptAt, retryDelayMs, shouldDisable } from "./retry-schedule";

describe("endpoint URLs", () => {
  it("production takes https only; the sandbox also http to a loopback host; never credentials or fragments", () => {
    expect(endpointUrlProblem("https://partner.example/hooks", "production")).toBeNull();
    expect(endpointUrlProblem("http://partner.example/hooks", "production")).toBe("must be https");
    expect(endpointUrlProblem("http://127.0.0.1:4170/hooks", "production")).toBe("must be https");
    expect(endpointUrlProblem("http://127.0.0.1:4170/hooks", "sandbox")).toBeNull();
    expect(endpointUrlProblem("http://localhost/hooks", "sandbox")).toBeNull();
    expect(endpointUrlProblem("http://[::1]:4170/hooks", "sandbox")).toBeNull();
    expect(endpointUrlProblem("http://10.0.0.5/hooks", "sandbox")).toContain("https");
    expect(endpointUrlProblem("https://user:pw@partner.example/hooks", "production")).toContain("user name");
    expect(endpointUrlProblem("https://partner.example/hooks#x", "production")).toContain("fragment");
    expect(endpointUrlProblem("ftp://partner.example/", "production")).toBe("must be https");
    expect(endpointUrlProblem("not a url", "production")).toBe("must be an absolute URL");
  });
});

describe("addresses", () => {
  it("production refuses loopback, private, link-local, CGNAT, multicast and IPv4-mapped private addresses", () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fd00::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "::ffff:a00:1", "::ffff:7f00:1"]) {
      expect(isBlockedAddress(address, "production"), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34"]) expect(isBlockedAddress(address, "production"), address).toBe(false);
  });

  it("the sandbox allows loopback and private addresses, never link-local (cloud metadata)", () => {
    expect(isBlockedAddress("127.0.0.1", "sandbox")).toBe(false);
    expect(isBlockedAddress("10.1.2.3", "sandbox")).toBe(false);
    expect(isBlockedAddress("169.254.169.254", "sandbox")).toBe(true);
    expect(isBlockedAddress("fe80::1", "sandbox")).toBe(true);
  });

  it("resolves before checking: localhost is refused in production, an IP literal is checked as is", async () => {
    await expect(resolveDestination("localhost", "production")).rejects.toThrow(/never sent to/);
    await expect(resolveDestination("[::1]", "production")).rejects.toThrow(/never sent to/);
    await expect(resolveDestination("127.0.0.1", "sandbox")).resolves.toEqual({ address: "127.0.0.1", family: 4 });
  });
});

describe("retry schedule", () => {
  it("backs off exponentially to 12 hours, stops 3 days after the event, disables after 5 days of failures", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5_000, 20_000, 80_000, 320_000]);
    expect(retryDelayMs(20)).toBe(12 * 3_600_000);
    const created = new Date("2026-11-20T00:00:00Z");
    expect(nextAttemptAt({ failedAttempts: 1, now: created, eventCreatedAt: created })).toEqual(new Date(created.getTime() + 5_000));
    expect(nextAttemptAt({ failedAttempts: 10, now: new Date(created.getTime() + 2.8 * 86_400_000), eventCreatedAt: created })).toBeNull();
    expect(shouldDisable(created, new Date(created.getTime() + 5 * 86_400_000 - 1))).toBe(false);
    expect(shouldDisable(created, new Date(created.getTime() + 5 * 86_400_000))).toBe(true);
  });
});
