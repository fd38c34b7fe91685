import { describe, expect, it } from "vitest";
import { type Checks, readinessAnswer } from "./probes";

const allOk: Checks = {
  database: "ok",
  migrations: "ok",
  redis: "ok",
  search_index: "ok",
  shutdown: "ok",
};

describe("readinessAnswer", () => {
  it("is 200 ready when every check is ok, naming them", () => {
    expect(readinessAnswer(allOk)).toEqual({
      status: 200,
      body: { status: "ready", checks: allOk },
    });
  });

  it.each([
    ["database", { database: "unavailable" }],
    ["database not asked yet", { database: "unknown" }],
    ["migrations", { migrations: "pending" }],
    ["search index", { search_index: "building" }],
    ["shutdown", { shutdown: "draining" }],
  ] as const)(
    "is 503 not_ready when the %s is not ok, saying when to ask again",
    (_name, change) => {
      const checks = { ...allOk, ...change } as Checks;
      expect(readinessAnswer(checks)).toEqual({
        status: 503,
        body: { status: "not_ready", checks },
        retryAfter: 5,
      });
    },
  );

  it("stays ready without Redis, or with Redis down after it answered once (rate limits count in memory then)", () => {
    const { redis: _redis, ...withoutRedis } = allOk;
    expect(readinessAnswer(withoutRedis).status).toBe(200);
    expect(readinessAnswer({ ...allOk, redis: "degraded" })).toEqual({
      status: 200,
      body: { status: "ready", checks: { ...allOk, redis: "degraded" } },
    });
  });

  it("is not ready while a configured Redis has never answered (a wrong REDIS_URL stops a rollout)", () => {
    expect(readinessAnswer({ ...allOk, redis: "unavailable" }).status).toBe(503);
  });
});
