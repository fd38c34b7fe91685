/** The remembered owners of accepted tokens stay bounded: the oldest goes first (bearer-owners.ts). */
import { describe, expect, it } from "vitest";
import { forgetOwner, rememberOwner, rememberedOwner } from "./bearer-owners";

describe("remembered token owners", () => {
  it("keeps at most 10,000, forgetting the oldest first, and forgets a token on request", () => {
    for (let i = 0; i < 10_001; i++) rememberOwner(`hash-${i}`, { clientId: `cli_${i}` });
    expect(rememberedOwner("hash-0")).toBeUndefined();
    expect(rememberedOwner("hash-1")).toEqual({ clientId: "cli_1" });
    expect(rememberedOwner("hash-10000")).toEqual({ clientId: "cli_10000" });
    forgetOwner("hash-1");
    expect(rememberedOwner("hash-1")).toBeUndefined();
  });

  it("keeps a token's first owner (a token's client and person never change)", () => {
    rememberOwner("hash-same", { clientId: "cli_a", personId: "per_a" });
    rememberOwner("hash-same", { clientId: "cli_b" });
    expect(rememberedOwner("hash-same")).toEqual({ clientId: "cli_a", personId: "per_a" });
  });
});
