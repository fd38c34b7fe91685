/**
 * Which client called which operation on which day, so a deprecation can notify the partners
 * that used the operation in the last 90 days. A request only touches memory: the first call of a
 * (client, operation) pair on a UTC day is queued, and the queue is written a few seconds later in
 * one upsert (`last_called_on` only moves forward). A crash loses at most those seconds, and the
 * next call of the day records the pair again.
 */
import { db } from "../../platform/db";
import { logger } from "../../platform/observability/log";

const flushDelayMs = 5000;

type Call = { clientId: string; operationId: string; day: string };

const pending = new Map<string, Call>();
/** Pairs already written today; emptied when the day changes, so it holds at most one day's pairs. */
let written = new Set<string>();
let writtenDay = "";
let timer: NodeJS.Timeout | undefined;
let failing = false;

/** Notes that `clientId` called `operationId` at `now`; returns at once. */
export const recordCall = (clientId: string, operationId: string, now: Date) => {
  const day = now.toISOString().slice(0, 10);
  if (day !== writtenDay) {
    written = new Set();
    writtenDay = day;
  }
  const key = `${clientId} ${operationId} ${day}`;
  if (written.has(key) || pending.has(key)) return;
  pending.set(key, { clientId, operationId, day });
  timer ??= setTimeout(() => void flushCalls(), flushDelayMs).unref();
};

/**
 * Forgets the queued calls and stops the timer, for a process whose database is going away without
 * it (the test harness drops each file's database): a write then would only fail, and log so.
 */
export const discardQueuedCalls = () => {
  clearTimeout(timer);
  timer = undefined;
  pending.clear();
};

/** Writes the queued calls now (also what the timer does). A failed write keeps them for the next try. */
export const flushCalls = async () => {
  clearTimeout(timer);
  timer = undefined;
  if (!pending.size) return;
  const batch = [...pending.entries()];
  pending.clear();
  const calls = batch.map(([, call]) => call);
  try {
    // A client deleted since the call is skipped by the join rather than failing the batch.
    await db().$executeRaw`
      INSERT INTO client_operation_calls (client_id, operation_id, last_called_on)
      SELECT c.id, x.operation_id, x.day
      FROM unnest(${calls.map((call) => call.clientId)}::text[], ${calls.map((call) => call.operationId)}::text[], ${calls.map((call) => call.day)}::date[]) AS x(client_id, operation_id, day)
      JOIN api_clients c ON c.id = x.client_id
      ON CONFLICT (client_id, operation_id) DO UPDATE SET last_called_on = GREATEST(client_operation_calls.last_called_on, EXCLUDED.last_called_on)`;
    for (const [key, call] of batch) if (call.day === writtenDay) written.add(key);
    failing = false;
  } catch (error) {
    if (!failing)
      logger.error({ err: error }, "lifecycle: cannot record operation calls; retrying");
    failing = true;
    for (const [key, call] of batch) if (!pending.has(key)) pending.set(key, call);
    timer ??= setTimeout(() => void flushCalls(), flushDelayMs).unref();
  }
};
