/**
 * Vitest setup: the service's log lines written in a test process go nowhere unless a test captures
 * them (server/testing/log-capture.ts), except warnings and errors, which still reach stderr. Tests make
 * thousands of requests in-process; one info line each would bury the report. Service processes a
 * test starts keep their own stdout.
 */
import { captureLogs } from "../platform/observability/log";

captureLogs((line) => {
  if (/^\{"level":"(?:warn|error|fatal)"/.test(line)) process.stderr.write(line);
});
