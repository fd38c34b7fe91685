/**
 * Traces (OpenTelemetry, docs/adr/0113-traces.md): the switch and the one seam the layers call.
 * Tracing is on only when OTEL_EXPORTER_OTLP_ENDPOINT is set; then `startTracing` loads the SDK
 * (./tracing-sdk.ts), which must happen before the servers and `pg` are loaded, so its instrumentations patch them.
 * Off, nothing of OpenTelemetry is loaded: this module imports only types, and `inSpan` runs its
 * work directly.
 */
import type { Attributes } from "@opentelemetry/api";
import type { NoteOnSpan } from "./tracing-sdk";

type SpanRunner = <T>(
  name: string,
  attributes: Attributes,
  run: (note: NoteOnSpan) => Promise<T>,
) => Promise<T>;

const noteNothing: NoteOnSpan = () => undefined;

let runInSpan: SpanRunner | undefined;

/** True once `startTracing` started the SDK in this process. */
export const isTracing = () => runInSpan !== undefined;

/**
 * Runs `run` inside a child span of the current one named `name` (a procedure, a processor call);
 * the span records a thrown error's name, never its message. Without tracing, just runs `run`.
 */
export const inSpan = <T>(
  name: string,
  attributes: Attributes,
  run: (note: NoteOnSpan) => Promise<T>,
) => (runInSpan ? runInSpan(name, attributes, run) : run(noteNothing));

type TracingSettings = {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_SERVICE_NAME?: string;
  SERVICE_ENV: string;
};

/**
 * Starts the SDK when an endpoint is configured (the standard OTEL_* variables tune it: sampler,
 * batch delay, protocol); returns what flushes the spans still queued at shutdown.
 */
export const startTracing = (settings: TracingSettings) => {
  if (!settings.OTEL_EXPORTER_OTLP_ENDPOINT) return { stop: async () => undefined };
  // require, not import(): the sweep thread registers only tsx's CommonJS hook (sweep-thread.ts), and
  // a synchronous start lets a module started first patch what the next import loads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startSdk }: typeof import("./tracing-sdk") = require("./tracing-sdk");
  const sdk = startSdk({
    serviceName: settings.OTEL_SERVICE_NAME ?? "shopping-api",
    serviceEnv: settings.SERVICE_ENV,
  });
  runInSpan = sdk.runInSpan;
  return { stop: sdk.stop };
};
