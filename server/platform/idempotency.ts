/**
 * Idempotency-Key handling kept in PostgreSQL (DESIGN.md, RELIABILITY.md B3): a key belongs to one
 * client (and person) and one operation. The first request claims it; its outcome is stored in the
 * same transaction as the change it reports, so a crash leaves either both or neither. Replays get
 * the stored outcome for 24 hours; the same key with another request is 422 idempotency_key_reused;
 * a key whose first request is still running is 409 idempotency_key_in_use with Retry-After.
 * Outcomes are stored only once execution begins: validation errors and outages store nothing, so a
 * corrected retry runs. Business refusals (409) are stored and replayed like successes.
 */
import { createHash } from "node:crypto";
import type { Db, Tx } from "./db";
import type { Sql } from "./sql";
import { AppError, errorBody, type ErrorCode } from "../core/errors";

export const idempotencyLifetimeMs = 24 * 3_600_000;
/** A claim older than this with no outcome belongs to a crashed request (its transaction rolled back). */
export const abandonedClaimMs = 60_000;

export type IdempotencyKeyRef = { scope: string; operation: string; key: string };

/** JSON with sorted keys, so the same request in another key order hashes the same. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonical(member)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
};

export const requestHash = (request: unknown) =>
  createHash("sha256").update(canonical(request)).digest("hex");

const replayHeaders = { "Idempotent-Replayed": "true" };

/** Outcomes worth replaying: a business refusal, never a validation error or an outage. */
const isStoredRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && error.status === 409 && error.code !== "idempotency_key_in_use";

type Outcome = { status: number; body: unknown };

/**
 * Claims the key: true when this request owns it now (new, expired, or abandoned by a crash). With
 * `staged`, the claim also stores that outcome as what a crash after its transaction would leave
 * (staged keys, below).
 */
const claim = async (
  db: Sql,
  ref: IdempotencyKeyRef,
  hash: string,
  now: Date,
  staged?: Outcome,
) => {
  const rows = await db.$queryRaw<{ scope: string }[]>`
    INSERT INTO idempotency_records (scope, operation, key, request_hash, locked_at, created_at, expires_at, response_status, response_body)
    VALUES (${ref.scope}, ${ref.operation}, ${ref.key}, ${hash}, ${now}, ${now}, ${new Date(now.getTime() + idempotencyLifetimeMs)},
      ${staged?.status ?? null}::int, ${staged ? JSON.stringify(staged.body) : null}::text)
    ON CONFLICT (scope, operation, key) DO UPDATE SET
      request_hash = EXCLUDED.request_hash, locked_at = EXCLUDED.locked_at, created_at = EXCLUDED.created_at,
      expires_at = EXCLUDED.expires_at, response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body
    WHERE idempotency_records.expires_at <= ${now}
       OR (idempotency_records.response_status IS NULL AND idempotency_records.request_hash = EXCLUDED.request_hash
           AND idempotency_records.locked_at < ${new Date(now.getTime() - abandonedClaimMs)})
    RETURNING scope`;
  return rows.length === 1;
};

const inUse = () =>
  new AppError("idempotency_key_in_use", {
    message: "A request with this Idempotency-Key is in progress; retry shortly.",
    retryAfter: 1,
  });

/**
 * The key used before with another request: 422 with `fields` naming the header, spelt as the
 * header's own 422 spells it (a missing or malformed key), as every 422 names its field (DESIGN.md).
 */
const keyReused = () =>
  new AppError("idempotency_key_reused", {
    message:
      "This Idempotency-Key was used with a different request; use a new key for a new request.",
    fields: {
      "Idempotency-Key": "was used with a different request; use a new key for a new request",
    },
  });

/**
 * The key checked before the request's references are resolved (its quote, its selections): a key
 * still kept for another request is 422 idempotency_key_reused whatever the new body names, an
 * unknown quote included, rather than the 404 or 422 of that body. `keptHash` is the request hash
 * kept under the key (readKeptRequestHash, or keptRequestHashSql inside a store's own read); null
 * when the key is new or expired. A key kept for this same request goes on to the operation's own
 * claim, which decides the replay (and catches a concurrent first use of the key).
 */
export const refuseReusedKey = (keptHash: string | null | undefined, hash: string) => {
  if (keptHash && keptHash !== hash) throw keyReused();
};

/** The request hash kept under a live key, or null. */
export const readKeptRequestHash = async (db: Db, ref: IdempotencyKeyRef, now: Date) => {
  const record = await db.idempotencyRecord.findUnique({
    where: { scope_operation_key: ref },
    select: { requestHash: true, expiresAt: true },
  });
  return record && record.expiresAt > now ? record.requestHash : null;
};

/**
 * readKeptRequestHash as a scalar subquery over four positional parameters from `$first` (scope,
 * operation, key, now), for a use case that reads its whole context in one statement (POST
 * /purchases, whose statements are counted: docs/adr/0131).
 */
export const keptRequestHashSql = (first: number) =>
  `(SELECT request_hash FROM idempotency_records WHERE scope = $${first} AND operation = $${first + 1} AND key = $${first + 2} AND expires_at > $${first + 3})`;

/**
 * What a request that did not get the claim receives: the stored outcome, or why not. A staged
 * outcome (claimIdempotencyKey's `staged`) is answered only once its request finished, or once that
 * request is abandoned (a crash after the first step): then the staged outcome is the first answer.
 */
export const answerExisting = async <T>(
  db: Db,
  ref: IdempotencyKeyRef,
  hash: string,
  now: Date,
): Promise<{ result: T; replayed: true }> => {
  const record = await db.idempotencyRecord.findUnique({ where: { scope_operation_key: ref } });
  if (!record) throw inUse();
  if (record.requestHash !== hash) throw keyReused();
  const running =
    record.lockedAt !== null && record.lockedAt.getTime() >= now.getTime() - abandonedClaimMs;
  if (record.responseStatus === null || record.responseBody === null || running) throw inUse();
  const body = JSON.parse(record.responseBody);
  if (record.responseStatus >= 400) {
    const { code, message, ...details } = body.error as { code: ErrorCode; message: string };
    throw new AppError(code, { message, details, headers: replayHeaders });
  }
  return { result: body as T, replayed: true };
};

/**
 * Runs `execute` once per key. Its result is stored as JSON with `status` inside its own
 * transaction; a replay returns the parsed first result, which serialises to the same bytes.
 */
export const runIdempotent = async <T>(
  db: Db,
  options: { ref: IdempotencyKeyRef; request: unknown; now: Date; status: number },
  execute: (tx: Tx) => Promise<T>,
): Promise<{ result: T; replayed: boolean }> => {
  const hash = requestHash(options.request);
  const { ref, now } = options;
  if (!(await claim(db, ref, hash, now))) return answerExisting<T>(db, ref, hash, now);
  const owns = { ...ref, lockedAt: now, responseStatus: null };
  try {
    const result = await db.$transaction(async (tx) => {
      const value = await execute(tx);
      const stored = await tx.idempotencyRecord.updateMany({
        where: owns,
        data: {
          responseStatus: options.status,
          responseBody: JSON.stringify(value),
          lockedAt: null,
        },
      });
      // Someone took the claim over (we ran past abandonedClaimMs): roll back rather than act twice.
      if (stored.count !== 1)
        throw new AppError("idempotency_key_in_use", {
          message: "This request took too long; retry with the same key.",
          retryAfter: 1,
        });
      return value;
    });
    return { result, replayed: false };
  } catch (error) {
    if (isStoredRefusal(error)) {
      await db.idempotencyRecord.updateMany({
        where: owns,
        data: {
          responseStatus: error.status,
          responseBody: JSON.stringify(errorBody(error)),
          lockedAt: null,
        },
      });
    } else {
      await db.idempotencyRecord.deleteMany({ where: owns }).catch(() => undefined);
    }
    throw error;
  }
};

/*
 * Staged keys, for an operation that must call a third party (the processor) outside any
 * transaction: claim the key in the transaction of the first write with the outcome a crash would
 * leave there staged (claimIdempotencyKey: stored, but still claimed, so a concurrent duplicate
 * gets 409 idempotency_key_in_use), then store the final outcome in the transaction that records
 * the third party's answer (finishIdempotent). A request that dies between the steps leaves its
 * staged outcome, which replays return once the claim is abandoned: the key never runs the
 * operation twice. A refusal decided after the claim is stored over the staged outcome in the
 * claim's transaction (finishIdempotent), so nothing else ever reads it.
 */

/**
 * Claims the key inside the caller's transaction, staging `staged`; false when another request
 * holds or answered it (then call answerExisting after the transaction).
 */
export const claimIdempotencyKey = (
  tx: Sql,
  ref: IdempotencyKeyRef,
  hash: string,
  now: Date,
  staged: Outcome,
) => claim(tx, ref, hash, now, staged);

/** Stores the final outcome and ends the claim (in the transaction that records what it reports). */
export const finishIdempotent = async (
  tx: Sql,
  ref: IdempotencyKeyRef,
  now: Date,
  outcome: { status: number; body: unknown },
) => {
  await tx.$executeRaw`
    UPDATE idempotency_records SET response_status = ${outcome.status}, response_body = ${JSON.stringify(outcome.body)}, locked_at = NULL
    WHERE scope = ${ref.scope} AND operation = ${ref.operation} AND key = ${ref.key} AND locked_at = ${now}`;
};

/**
 * Stores a refusal decided in a first transaction that rolled back (so the claim went with it):
 * claims the key again and stores the outcome at once. False when another request took the key
 * meanwhile (it decides the stored answer; this one still answers its own refusal).
 */
export const storeIdempotentRefusal = (
  db: Db,
  ref: IdempotencyKeyRef,
  hash: string,
  now: Date,
  outcome: { status: number; body: unknown },
) =>
  db.$transaction(async (tx) => {
    if (!(await claim(tx, ref, hash, now))) return false;
    await finishIdempotent(tx, ref, now, outcome);
    return true;
  });
