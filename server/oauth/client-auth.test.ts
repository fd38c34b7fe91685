/** Malformed HTTP Basic client credentials are a failed client authentication (401), never a 500. */
import { describe, expect, it } from "vitest";
import { readClientAuth } from "./client-auth";

const withBasic = (credentials: string) =>
  readClientAuth(
    new Request("http://localhost:3000/oauth/token", {
      method: "POST",
      headers: { authorization: `Basic ${credentials}` },
    }),
    new URLSearchParams(),
  );

const encoded = (text: string) => Buffer.from(text).toString("base64");

describe("readClientAuth with malformed Basic credentials", () => {
  it.each([
    ["a bad %-escape in the id", encoded("cli_%zz:secret")],
    ["a bad %-escape in the secret", encoded("cli_1:sec%E0%A4%A")],
    ["no colon", encoded("cli_1secret")],
    ["not base64", "!!!not-base64***"],
    ["nothing", ""],
  ])("%s: 401 invalid_client with a Basic challenge", async (_name, credentials) => {
    const result = withBasic(credentials);
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Basic realm="oauth"');
    expect((await response.json()).error).toBe("invalid_client");
  });

  it("well-formed credentials are decoded (form-urlencoded inside Basic)", () => {
    expect(withBasic(encoded("cli_1:a%2Bb+c"))).toEqual({
      clientId: "cli_1",
      secret: "a+b c",
      method: "basic",
    });
  });
});
