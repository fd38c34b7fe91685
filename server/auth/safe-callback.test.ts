/** Where sign-in and sign-up go afterwards: only a page of this site, whatever a browser would make of the value. */
import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "@/app/_components/safe-callback";

const publicUrl = "https://shop.example.ca";

describe("safeCallbackUrl", () => {
  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "//evil.example",
    "https://evil.example/account",
    "/%09/evil.example",
    "/%5C%5Cevil.example",
    "javascript:alert(1)",
    "account",
    "https://shop.example.ca.evil.example/",
    "http://shop.example.ca/account",
    " /account",
  ])("refuses %j", (value) => {
    expect(safeCallbackUrl(value, "/account", publicUrl)).toBe("/account");
  });

  it.each([
    ["/account", "/account"],
    [
      "/oauth/consent?client_id=cli_1&scope=profile%3Aread&state=a%2Fb",
      "/oauth/consent?client_id=cli_1&scope=profile%3Aread&state=a%2Fb",
    ],
    ["/developers#keys", "/developers#keys"],
    ["https://shop.example.ca/account/apps?x=1", "/account/apps?x=1"],
  ])("keeps %j", (value, expected) => {
    expect(safeCallbackUrl(value, "/account", publicUrl)).toBe(expected);
  });

  it("takes the first of repeated values and falls back when none", () => {
    expect(safeCallbackUrl(["/a", "/b"], "/account", publicUrl)).toBe("/a");
    expect(safeCallbackUrl(undefined, "/account", publicUrl)).toBe("/account");
  });
});
