/**
 * The partner wrapper counts a remembered token's rate limit beside its check (with-partner.ts,
 * server/auth/bearer-owners.ts): every request still counts exactly once, in the client's and the
 * person's windows, the 121st is still refused, and a token revoked after it was remembered is
 * refused at once, spending its client one point once.
 */
import { describe, expect, it } from "vitest";
import { createLinkedPerson, createPartner } from "../../../prisma/factories";
import { sha256 } from "../../core/ids";
import { db } from "../../platform/db";
import { revokeAccessToken } from "../../auth";
import { unlessMemoryDecided } from "../../testing/rate-limit-memory";
import { operationHandler } from "./rest-router";

const categories = operationHandler("GET /api/v1/categories");

const call = (token: string) =>
  categories(
    new Request("http://localhost:3000/api/v1/categories", {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({}) },
  );

/** RateLimit-Remaining of the tightest window, and the draft's per-window `RateLimit` header. */
const remaining = (response: Response) => ({
  tightest: Number(response.headers.get("ratelimit-remaining")),
  windows: response.headers.get("ratelimit"),
});

describe("the rate limit counted beside the token's check", () => {
  it("counts each request once, the first (token not yet remembered) and every later one", async () => {
    await unlessMemoryDecided(async () => {
      const partner = await createPartner();
      const token = await partner.token();
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await call(token);
        expect(response.status).toBe(200);
        seen.push(remaining(response).tightest);
      }
      expect(seen).toEqual([119, 118, 117, 116, 115, 114]);
    });
  });

  it("counts a linked token in its person's windows as well, once a request", async () => {
    await unlessMemoryDecided(async () => {
      const { token } = await createLinkedPerson();
      const first = remaining(await call(token));
      const second = remaining(await call(token));
      expect(first.windows).toBe('"minute";r=119;t=60, "hour";r=2999;t=3600');
      expect(second.windows).toMatch(/^"minute";r=118;t=\d+, "hour";r=2998;t=\d+$/);
    });
  });

  it("counts concurrent requests on one remembered token once each", async () => {
    await unlessMemoryDecided(async () => {
      const partner = await createPartner();
      const token = await partner.token();
      expect(remaining(await call(token)).tightest).toBe(119);
      const answers = await Promise.all(Array.from({ length: 30 }, () => call(token)));
      expect(answers.every((response) => response.status === 200)).toBe(true);
      const counts = answers.map((response) => remaining(response).tightest).sort((a, b) => a - b);
      expect(counts).toEqual(Array.from({ length: 30 }, (_, i) => 89 + i));
    });
  });

  it("still refuses the 121st request of a minute", async () => {
    await unlessMemoryDecided(async () => {
      const partner = await createPartner();
      const token = await partner.token();
      const answers: Response[] = [];
      for (let i = 0; i < 121; i++) answers.push(await call(token));
      expect(answers.slice(0, 120).every((response) => response.status === 200)).toBe(true);
      expect(answers[120].status).toBe(429);
      expect(answers[120].headers.get("retry-after")).toMatch(/^\d+$/);
    });
  });

  it("refuses a remembered token at once when it is revoked, and forgets it", async () => {
    await unlessMemoryDecided(async () => {
      const partner = await createPartner();
      const token = await partner.token();
      expect(remaining(await call(token)).tightest).toBe(119);
      await revokeAccessToken(db(), {
        tokenHash: sha256(token),
        clientId: partner.client.id,
        now: new Date(),
      });
      const refused = await call(token);
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.code).toBe("unauthorized");
      expect((await call(token)).status).toBe(401);
      // The first refused request had counted beside the check (one point); the second, its owner
      // forgotten, counted nothing.
      expect(remaining(await call(await partner.token())).tightest).toBe(117);
    });
  });
});
