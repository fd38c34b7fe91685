/**
 * `npm start` keeps the in-memory catalogue index on a thread of its own (docs/adr/0121): the index,
 * its sync with PostgreSQL (catalog-sync.ts) and every evaluation run there, so a 10-30 ms scan of a
 * broad search neither blocks the requests behind it on the thread that serves HTTP nor competes
 * with their parsing, authentication and serialisation for one core. This side forwards searches
 * and watcher counts as messages and mirrors the index's version and state, which the page cache and
 * /metrics read synchronously. While the thread is not ready, or has died and is started again (after
 * a second, rebuilding the index), the PostgreSQL reference answers (memory-search.ts).
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { typeScriptThreadEntry } from "../../../platform/source-maps";
import { applyMetricDeltas, isMetricDeltasMessage } from "../../../platform/observability/metrics";
import { logger } from "../../../platform/observability/log";
import type { IndexHost, IndexState } from "./index-host";
import type { FromSearchThread, Question, ToSearchThread } from "./search-thread-messages";

const restartDelayMs = 1_000;
/**
 * The thread's new-object space: an evaluation allocates little (its buffers are reused), and V8's
 * default would grow it to tens of MB during the build and keep them (docs/adr/0093).
 */
const youngGenerationMb = 8;
const entry = typeScriptThreadEntry(path.join(__dirname, "search-worker.ts"));

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Starts the thread; `ready` settles when its first index is built (or it failed and the reference answers). */
export const startSearchThread = (options: {
  databaseUrl: string;
  log: (line: string) => void;
}) => {
  let worker: Worker | undefined;
  let isStopping = false;
  let version: number | undefined;
  let state: IndexState = { items: 0, pendingSince: 0 };
  let nextId = 0;
  const pending = new Map<number, Pending>();
  let markReady = () => undefined as void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const failPending = (reason: string) => {
    for (const request of pending.values()) request.reject(new Error(reason));
    pending.clear();
  };

  const onMessage = (message: FromSearchThread | { metricDeltas: unknown[] }) => {
    if (isMetricDeltasMessage(message)) return applyMetricDeltas(message.metricDeltas);
    const reply = message as FromSearchThread;
    if (reply.kind === "reply") {
      const request = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.error === undefined) request?.resolve(reply.value);
      else request?.reject(new Error(reply.error));
    } else if (reply.kind === "state") {
      version = reply.version;
      state = reply.state;
    } else if (reply.kind === "log") options.log(reply.line);
    else if (reply.kind === "started") markReady();
  };

  const spawn = () => {
    if (isStopping) return;
    const thread = new Worker(entry, {
      eval: true,
      name: "search",
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
      workerData: { databaseUrl: options.databaseUrl },
    });
    worker = thread;
    thread.on("message", onMessage);
    thread.on("error", (error) => logger.error({ err: error }, "search thread failed"));
    thread.on("exit", (code) => {
      worker = undefined;
      version = undefined;
      state = { items: 0, pendingSince: 0 };
      failPending("the search thread exited");
      if (isStopping) return;
      options.log(
        `[search] thread exited with code ${code}; starting it again in ${restartDelayMs} ms`,
      );
      setTimeout(spawn, restartDelayMs).unref();
    });
  };

  const ask = <T>(question: Question): Promise<T | undefined> => {
    // No thread, or one that is still building: the reference answers.
    if (!worker || version === undefined) return Promise.resolve(undefined);
    const id = ++nextId;
    const promise = new Promise<T>((resolve, reject) =>
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject }),
    );
    worker.postMessage({ ...question, id } satisfies ToSearchThread);
    return promise;
  };

  const host: IndexHost = {
    version: () => version,
    search: (query, lexemes) => ask({ kind: "search", query, lexemes }),
    priceWatchers: (itemIds, viewerId) =>
      ask({ kind: "watchers", itemIds: [...itemIds], viewerId }),
    state: () => state,
    stop: () =>
      new Promise<void>((resolve) => {
        isStopping = true;
        if (!worker) return resolve();
        worker.once("exit", () => resolve());
        worker.postMessage({ kind: "stop" } satisfies ToSearchThread);
      }),
  };
  spawn();
  return {
    host,
    ready,
    /** Ends the thread as a crash would (tests): it is started again after a second and rebuilds. */
    terminate: async () => {
      await worker?.terminate();
    },
  };
};
