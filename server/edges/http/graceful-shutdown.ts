/**
 * How `npm start` stops on SIGTERM without failing a request (docs/adr/0111-probes-and-graceful-shutdown.md):
 * 1. at once, /readyz answers 503 (`isDraining`) and background work is told to stop taking new
 *    items (it finishes or releases what it holds);
 * 2. for `drainMs` the listener keeps serving, every response with `Connection: close`, so the
 *    balancer's check sees 503 and takes the instance out, and keep-alive clients open their next
 *    connection elsewhere;
 * 3. then the listener closes (new connections are refused), idle connections are closed, and the
 *    requests in flight finish (their connections close after their response);
 * 4. then the closers run in order (search sync, database, ...) and the process exits 0.
 * Steps 3 and 4 get `timeoutMs` together: past it the connections left are cut and the process exits 1.
 * A second SIGTERM (or SIGINT) exits at once with 128 + the signal's number, unless it comes within
 * a second of the first: that is the same stop delivered twice (a service manager signals the whole
 * process group, and `npm start` forwards its copy to this process). SIGINT skips the drain
 * (someone pressed Ctrl-C; no balancer is waiting), but still lets requests in flight finish.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { logger } from "../../platform/observability/log";

const signalNumbers = { SIGINT: 2, SIGTERM: 15 } as const;
/** A signal this soon after the first is the same stop, delivered twice (see above). */
const duplicateWindowMs = 1_000;
type Signal = keyof typeof signalNumbers;

export type ShutdownOptions = {
  server: Server;
  drainMs: number;
  timeoutMs: number;
  log: (line: string) => void;
  /** Started with the drain: background work stops taking new items and ends what it holds. */
  stopBackground?: () => Promise<void>;
  /** Run one after another once no request is left (stop the search sync, flush, close the database). */
  closers?: (() => Promise<void>)[];
  exit?: (code: number) => void;
};

export const createGracefulShutdown = (options: ShutdownOptions) => {
  const { server, log } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let phase: "serving" | "draining" | "closing" = "serving";
  let firstSignalAt = 0;

  // Before the front door's own listener. Requests under way when the drain begins are kept, so
  // that their answers, too, end their connections (an answer already started keeps its headers).
  const inFlight = new Set<ServerResponse>();
  const endsItsConnection = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader("Connection", "close");
  };
  server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
    if (phase !== "serving") return endsItsConnection(response);
    inFlight.add(response);
    response.once("close", () => inFlight.delete(response));
  });

  /** Stops the listener and waits for the connections left; false when `timeoutMs` ran out first. */
  const closeAndFinish = async (background: Promise<void>) => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const finished = (async () => {
      await Promise.all([closed, background]);
      // One closer failing must not leave the others (the database, the tracer) open.
      for (const close of options.closers ?? [])
        await close().catch((error: unknown) =>
          logger.error({ err: error, component: "shutdown" }, "a shutdown step failed"),
        );
      return true;
    })();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), options.timeoutMs);
    });
    const isClean = await Promise.race([finished, expired]);
    clearTimeout(timer);
    return isClean;
  };

  const shutdown = async (signal: Signal) => {
    const started = Date.now();
    phase = "draining";
    for (const response of inFlight) endsItsConnection(response);
    inFlight.clear();
    const drainMs = signal === "SIGINT" ? 0 : options.drainMs;
    log(`${signal}: not ready from now; serving for ${drainMs} ms more, then stopping`);
    const background = (options.stopBackground?.() ?? Promise.resolve()).catch((error: unknown) =>
      logger.error({ err: error, component: "shutdown" }, "background work did not stop cleanly"),
    );
    await sleep(drainMs);
    phase = "closing";
    log("no longer accepting connections; waiting for the requests in flight");
    const isClean = await closeAndFinish(background).catch((error: unknown) => {
      logger.error({ err: error, component: "shutdown" }, "shutdown failed");
      return false;
    });
    if (!isClean) {
      server.closeAllConnections();
      log(`stopped after SHUTDOWN_TIMEOUT_MS (${options.timeoutMs} ms) with work left; exiting 1`);
      exit(1);
      return;
    }
    log(`stopped cleanly in ${Date.now() - started} ms`);
    exit(0);
  };

  const onSignal = (signal: Signal) => {
    if (phase !== "serving" && Date.now() - firstSignalAt < duplicateWindowMs) return;
    if (phase !== "serving") {
      log(`second ${signal}: exiting now`);
      exit(128 + signalNumbers[signal]);
      return;
    }
    firstSignalAt = Date.now();
    void shutdown(signal);
  };

  return {
    /** True from the first signal on: /readyz answers 503. */
    isDraining: () => phase !== "serving",
    /** Handles SIGTERM and SIGINT from now on. */
    handleSignals: () => {
      process.on("SIGTERM", () => onSignal("SIGTERM"));
      process.on("SIGINT", () => onSignal("SIGINT"));
    },
  };
};
