/**
 * The partner limit's hour window refused over HTTP (RELIABILITY B5-02), counted in Redis (REDIS_URL,
 * or this machine's Redis when unset) so the test can spend the hour as 3,000 requests would, in the
 * same windows the service counts in, without sending them one by one under the minute's limit.
 */
import { describe, expect, it } from "vitest";
import { createPartner } from "../../prisma/factories";
import { resetEnv } from "./env";
import { createLimiters, partnerPolicies } from "./rate-limit";
import { operationHandler } from "@/server/edges/rest/rest-router";

// Read on the partner limiter's first use, which is in the test below.
process.env.REDIS_URL ??= "redis://127.0.0.1:6379";
resetEnv();

const categories = operationHandler("GET /api/v1/categories");

describe("the partner limit's hour window over HTTP (B5-02)", () => {
  it("request 3,001 of an hour is 429 naming the hour, its RateLimit r=0;t=N and a Retry-After of at least N, though the minute has room", async () => {
    const partner = await createPartner();
    const [, hour] = createLimiters({
      redisUrl: process.env.REDIS_URL,
      prefix: `${process.env.RATE_LIMIT_PREFIX}:partner`,
      policies: partnerPolicies,
    });
    await hour.limiter.consume(partner.client.id, 3000);
    const limited = await categories(
      new Request("http://localhost:3000/api/v1/categories", {
        headers: { authorization: `Bearer ${await partner.token()}` },
      }),
    );
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toMatchObject({
      code: "rate_limited",
      violated_policies: ["hour"],
    });
    const window = limited.headers.get("ratelimit")?.match(/"hour";r=0;t=(\d+)/);
    expect(window).not.toBeNull();
    expect(Number(window?.[1])).toBeGreaterThan(3500);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(window?.[1]));
    // The refused request spent none of the minute (ADR 0080): it still has its 120.
    expect(limited.headers.get("ratelimit")).toMatch(/"minute";r=120;/);
  });
});
