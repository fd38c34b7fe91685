import { describe, expect, it } from "vitest";
import { isLoopback, redirectUriProblem } from "./redirect-uris";

describe("redirect URI rule", () => {
  it.each([
    "https://app.example.com/callback",
    "https://app.example.com/cb?tenant=1",
    "http://localhost:8080/cb",
    "http://127.0.0.1/cb",
    "http://[::1]:9000/cb",
    "http://127.0.0.2:4000/cb",
    "http://app.localhost:3000/cb",
  ])("accepts %s in sandbox", (uri) => {
    expect(redirectUriProblem(uri, "sandbox")).toBeUndefined();
  });

  it.each([
    ["javascript:alert(1)", "https"],
    ["data:text/html,hi", "https"],
    ["http://app.example.com/cb", "localhost"],
    ["https://*.example.com/cb", "wildcard"],
    ["https://app.example.com/cb#frag", "fragment"],
    ["https://user:pw@app.example.com/cb", "user information"],
    ["/relative/cb", "absolute"],
    ["com.example.app:/cb", "https"],
  ])("refuses %s", (uri, reason) => {
    expect(redirectUriProblem(uri, "sandbox")).toContain(reason);
  });

  it("refuses loopback http in production", () => {
    expect(redirectUriProblem("http://localhost:8080/cb", "production")).toContain("production");
    expect(redirectUriProblem("https://app.example.com/cb", "production")).toBeUndefined();
  });
});

describe('isLoopback (the consent page\'s "runs on your own computer" notice, B2-23)', () => {
  it.each([
    ["http://localhost:8080/cb", true],
    ["http://127.0.0.1/cb", true],
    ["http://[::1]:9000/cb", true],
    ["https://app.example.com/cb", false],
    ["https://127.0.0.1.example.com/cb", false],
  ])("%s: %s", (uri, expected) => expect(isLoopback(uri)).toBe(expected));
});
