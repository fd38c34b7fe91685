/**
 * The search thread's entry (search-thread.ts): builds and syncs the index and answers searches and
 * watcher counts, cheapest first (answer-queue.ts, with query-plan.ts's estimate).
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { forwardMetrics } from "../../../platform/observability/metrics";
import { CatalogSync } from "./catalog-sync";
import { AnswerQueue } from "./answer-queue";
import { evaluationCost } from "./query-plan";
import { answerSearch, countWatchers, stateOf } from "./index-host";
import type { FromSearchThread, ToSearchThread } from "./search-thread-messages";

if (!parentPort)
  throw new Error("search-worker.ts runs on the search thread only (search-thread.ts)");
const port = parentPort;
const post = (message: FromSearchThread) => port.postMessage(message);
// The sync's counts (rebuilds) reach the main thread's /metrics as deltas, as the sweep thread's do.
const flushMetrics = forwardMetrics((message) => port.postMessage(message));

/** A request older than this is answered next, however costly, so an expensive one is not starved. */
const maxWaitMs = 100;
/** The queue is answered in turns this long, between which the sync's notifications and timers run. */
const turnMs = 50;

let sent = { version: undefined as number | undefined, items: 0, pendingSince: 0 };
/** Sends the version and state when they changed: after every applied change, and each second for the lag. */
const sendState = () => {
  const state = stateOf(sync);
  const version = sync.index?.version;
  if (
    version === sent.version &&
    state.items === sent.items &&
    state.pendingSince === sent.pendingSince
  )
    return;
  sent = { version, ...state };
  post({ kind: "state", version, state });
};

const { databaseUrl } = workerData as { databaseUrl: string };
const sync = new CatalogSync({
  databaseUrl,
  log: (line) => post({ kind: "log", line }),
  onApplied: sendState,
});
setInterval(sendState, 1000).unref();

void sync
  .start()
  .catch(async (error: Error) => {
    post({
      kind: "log",
      line: `[search] the in-memory index failed to start, serving from PostgreSQL: ${error.message}`,
    });
    await sync.stop();
  })
  .finally(() => {
    sendState();
    post({ kind: "started" });
  });

type Request = Exclude<ToSearchThread, { kind: "stop" }>;
const queue = new AnswerQueue<Request>(maxWaitMs);
let isStopping = false;

const costOf = (request: Request) =>
  request.kind === "search" && sync.index
    ? evaluationCost(sync.index, request.query, request.lexemes)
    : 0;

const accept = (message: ToSearchThread) => {
  if (message.kind === "stop") {
    isStopping = true;
    void sync.stop().then(() => {
      flushMetrics();
      process.exit(0);
    });
  } else queue.add(message, costOf(message), performance.now());
};

const answer = (request: Request) => {
  try {
    const value =
      request.kind === "search"
        ? answerSearch(sync, request.query, request.lexemes)
        : countWatchers(sync, request.itemIds, request.viewerId);
    post({ kind: "reply", id: request.id, value });
  } catch (error) {
    post({ kind: "reply", id: request.id, error: (error as Error).message });
  }
};

let isAnswering = false;
const answerQueue = () => {
  const started = performance.now();
  for (;;) {
    // What arrived during the last answer joins the queue first: a cheap request that came in behind a scan goes next.
    for (let message; (message = receiveMessageOnPort(port));)
      accept(message.message as ToSearchThread);
    const next = isStopping ? undefined : queue.take(performance.now());
    if (!next) break;
    answer(next);
    if (performance.now() - started > turnMs) {
      setImmediate(answerQueue);
      return;
    }
  }
  isAnswering = false;
};

// The listener keeps the thread alive.
port.on("message", (message: ToSearchThread) => {
  accept(message);
  if (isAnswering) return;
  isAnswering = true;
  setImmediate(answerQueue);
});
