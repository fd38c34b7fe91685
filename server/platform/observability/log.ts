/**
 * The service's one logger (docs/adr/0112-structured-logs-and-metrics.md): pino, one JSON object a
 * line on stdout, so a log pipeline parses every field without a regular expression; human-readable
 * (pino-pretty) only when a person watches a terminal. LOG_LEVEL sets the level (info by default).
 * What is logged is chosen at each call; the redact list is only a second line of defence against a
 * header, token, password or card field passed in by mistake.
 */
import { isMainThread, workerData } from "node:worker_threads";
import pino, { type DestinationStream } from "pino";
import pretty from "pino-pretty";

const levels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** LOG_LEVEL as validated by server/platform/env.ts; read here directly, as the logger serves before (and while) the configuration is parsed. */
const level = () => {
  const wanted = process.env.LOG_LEVEL?.toLowerCase();
  return wanted && levels.includes(wanted) ? wanted : "info";
};

/**
 * Pretty when stdout is a terminal. A worker thread's stdout is never one (it is piped to the main
 * thread), so the sweep thread is told the main thread's choice (sweep-thread.ts passes it).
 */
export const isPrettyOutput: boolean = isMainThread
  ? Boolean(process.stdout.isTTY)
  : (workerData as { prettyLogs?: boolean } | null)?.prettyLogs === true;

/** Field paths never written, whatever a caller passes (censored, not dropped, so the slip shows). */
const redactPaths = [
  "authorization",
  "cookie",
  "token",
  "password",
  "secret",
  "card",
  "cardNumber",
  "cvc",
  "*.authorization",
  "*.cookie",
  "*.token",
  "*.password",
  "*.secret",
  "*.card",
  "*.cardNumber",
  "*.cvc",
  "headers",
  "*.headers",
  'req.headers["authorization"]',
];

const defaultDestination = (): DestinationStream =>
  isPrettyOutput
    ? pretty({
        sync: true,
        colorize: true,
        translateTime: "SYS:HH:MM:ss.l",
        ignore: "pid,hostname,component",
        // `[start] serving …`, as the launcher's lines always read.
        messageFormat: "{if component}[{component}] {end}{msg}",
      })
    : // Asynchronous on the main thread (pino flushes it at exit); a worker thread's lines are rare and written at once.
      pino.destination({ dest: 1, sync: !isMainThread, minLength: 0 });

let destination: DestinationStream | undefined;
/** Where lines go: stdout, or a test's capture (captureLogs). */
const switchable: DestinationStream = {
  write: (line: string) => (destination ??= defaultDestination()).write(line),
};

export const logger = pino(
  {
    level: level(),
    base: isMainThread ? { pid: process.pid } : { pid: process.pid, thread: "sweep" },
    redact: { paths: redactPaths, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: pino.stdSerializers.err },
  },
  switchable,
);

/** For command-line tools whose stdout is their answer (the ops CLI's `--json`): log lines go to stderr. */
export const sendLogsToStderr = () => {
  destination = pino.destination({ dest: 2, sync: true });
};

/**
 * Tests: sends every line to `write` until the returned function is called. The logger is
 * process-wide, so a test that captures owns it for that time.
 */
export const captureLogs = (write: (line: string) => void) => {
  const previous = destination;
  destination = { write };
  return () => {
    destination = previous;
  };
};
