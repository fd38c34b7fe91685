/**
 * One HTTP attempt: POST the body with its signed headers to the checked, pinned address, at most
 * 10 seconds in all (the host's lookup included), redirects not followed (a 3xx is a failed attempt: a redirect could point
 * anywhere, including where the address check forbids), and only the status kept (the response
 * body is read and dropped, at most 64 KiB of it). What the partner sees of a failure is generic
 * ("connection failed", "timed out", "HTTP 500"): which address was refused, or how a connection
 * to it failed, would let anyone who signs up probe the network we run in; `detail` is for our log.
 */
import http from "node:http";
import https from "node:https";
import { pinnedLookup } from "../../platform/http/outbound-host";
import { type DestinationRules, resolveDestination } from "./destination";
import { attemptTimeoutMs } from "./retry-schedule";

/** `error` is shown to the partner; `detail` (the underlying reason) only goes to our log. */
export type AttemptResult =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string; detail: string };

const userAgent = "ShoppingAPI-Webhooks/1.0 (+Standard Webhooks)";

/** Sends one attempt; never throws. */
export const postWebhook = async (options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  rules: DestinationRules;
  /** The attempt's deadline, the lookup included: attemptTimeoutMs (a test shortens it). */
  timeoutMs?: number;
}): Promise<AttemptResult> => {
  const url = new URL(options.url);
  const signal = AbortSignal.timeout(options.timeoutMs ?? attemptTimeoutMs);
  try {
    const destination = await resolveDestination(url.hostname, options.rules, signal);
    const status = await new Promise<number>((resolve, reject) => {
      const request = (url.protocol === "https:" ? https : http).request(
        url,
        {
          method: "POST",
          // Connect to the address just checked, whatever a second lookup would say (DNS rebinding).
          lookup: pinnedLookup(destination),
          signal,
          agent: false,
          headers: {
            "content-type": "application/json",
            "user-agent": userAgent,
            "content-length": Buffer.byteLength(options.body),
            ...options.headers,
          },
        },
        (response) => {
          let read = 0;
          response.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read > 65_536) response.destroy();
          });
          response.on("end", () => resolve(response.statusCode ?? 0));
          response.on("close", () => resolve(response.statusCode ?? 0));
          response.on("error", () => resolve(response.statusCode ?? 0));
        },
      );
      request.on("error", reject);
      request.end(options.body);
    });
    if (status >= 200 && status < 300) return { ok: true, status };
    const error =
      status >= 300 && status < 400
        ? `HTTP ${status} (redirects are not followed)`
        : `HTTP ${status}`;
    return { ok: false, status, error, detail: error };
  } catch (error) {
    const detail = String((error as Error).message ?? error).slice(0, 500);
    return {
      ok: false,
      status: null,
      error: signal.aborted ? "timed out" : "connection failed",
      detail,
    };
  }
};
