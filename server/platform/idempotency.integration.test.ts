/**
 * runIdempotent on its own (RELIABILITY.md B3-05/06, B4-01/14): an outage during execution stores
 * nothing so the retry runs; a claim abandoned by a crash is taken over after a minute; a record
 * older than 24 hours runs as new; a committed result survives a lost response.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "./db";
import { AppError } from "../core/errors";
import { abandonedClaimMs, idempotencyLifetimeMs, requestHash, runIdempotent } from "./idempotency";

const ref = () => ({ scope: "cli_test", operation: "test.op", key: randomUUID() });
const now = new Date();

describe("runIdempotent", () => {
  it("an outage during execution stores nothing, and the retry with the same key executes", async () => {
    const key = ref();
    const outage = Object.assign(new Error("Connection terminated"), { code: "P1001" });
    await expect(
      runIdempotent(db(), { ref: key, request: { a: 1 }, now, status: 201 }, async () => {
        throw outage;
      }),
    ).rejects.toBe(outage);
    expect(await db().idempotencyRecord.count({ where: key })).toBe(0);
    const retry = await runIdempotent(
      db(),
      { ref: key, request: { a: 1 }, now, status: 201 },
      async () => ({ ok: 1 }),
    );
    expect(retry).toEqual({ result: { ok: 1 }, replayed: false });
  });

  it("a refusal is stored and replayed; a validation error is not", async () => {
    const refused = ref();
    const run = () =>
      runIdempotent(db(), { ref: refused, request: {}, now, status: 201 }, async () => {
        throw new AppError("quote_expired", { message: "gone" });
      });
    await expect(run()).rejects.toMatchObject({ code: "quote_expired" });
    await expect(run()).rejects.toMatchObject({
      code: "quote_expired",
      options: { headers: { "Idempotent-Replayed": "true" } },
    });
    const invalid = ref();
    await expect(
      runIdempotent(db(), { ref: invalid, request: {}, now, status: 201 }, async () => {
        throw new AppError("invalid_request", { fields: { x: "bad" } });
      }),
    ).rejects.toMatchObject({ code: "invalid_request" });
    expect(await db().idempotencyRecord.count({ where: invalid })).toBe(0);
  });

  it("takes over a claim abandoned by a crash, but not a fresh one", async () => {
    const fresh = ref();
    await db().idempotencyRecord.create({
      data: {
        ...fresh,
        requestHash: requestHash({ a: 1 }),
        lockedAt: now,
        expiresAt: new Date(now.getTime() + idempotencyLifetimeMs),
      },
    });
    await expect(
      runIdempotent(db(), { ref: fresh, request: { a: 1 }, now, status: 201 }, async () => 1),
    ).rejects.toMatchObject({ code: "idempotency_key_in_use", options: { retryAfter: 1 } });
    const later = new Date(now.getTime() + abandonedClaimMs + 1000);
    expect(
      await runIdempotent(
        db(),
        { ref: fresh, request: { a: 1 }, now: later, status: 201 },
        async () => 2,
      ),
    ).toEqual({ result: 2, replayed: false });
  });

  it("replays within 24 hours and runs as new after", async () => {
    const key = ref();
    let runs = 0;
    const run = (at: Date) =>
      runIdempotent(db(), { ref: key, request: { b: [1, 2] }, now: at, status: 201 }, async () => ({
        run: ++runs,
      }));
    expect(await run(now)).toEqual({ result: { run: 1 }, replayed: false });
    expect(await run(new Date(now.getTime() + idempotencyLifetimeMs - 1000))).toEqual({
      result: { run: 1 },
      replayed: true,
    });
    expect(await run(new Date(now.getTime() + idempotencyLifetimeMs + 1000))).toEqual({
      result: { run: 2 },
      replayed: false,
    });
  });

  it("hashes requests by content, not key order", () => {
    expect(requestHash({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      requestHash({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
  });
});
