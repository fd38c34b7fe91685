/**
 * Tests: the log lines the service writes (server/platform/observability/log.ts), parsed, while a
 * test runs. A request's line is written when its response has ended on the server, which can be a
 * moment after the client read it: `find` waits for it.
 */
import { onTestFinished } from "vitest";
import { captureLogs } from "../platform/observability/log";

type LogLine = Record<string, unknown> & { level: string; msg: string };

/** Captures every line until the current test finishes. */
export const captureLogLines = () => {
  const lines: LogLine[] = [];
  const stop = captureLogs((line) => lines.push(JSON.parse(line) as LogLine));
  onTestFinished(stop);
  const find = async (predicate: (line: LogLine) => boolean, timeoutMs = 3000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find(predicate);
      if (found || Date.now() > until) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  /** Every line as written (JSON), for "never appears" assertions. */
  const text = () => lines.map((line) => JSON.stringify(line)).join("\n");
  return { lines, find, text };
};
