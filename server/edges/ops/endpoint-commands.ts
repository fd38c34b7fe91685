/**
 * `endpoint:deprecate "GET /api/v1/categories" --sunset 2027-06-01 --replacement URL
 * [--brownout START/END]...`, `endpoint:restore OPERATION`, `endpoint:list`: the operator's side of
 * the API lifecycle (server/edges/rest/endpoint-lifecycle.ts). Every instance follows within a second.
 */
import { ZodError } from "zod";
import { systemClock } from "../../platform/clock";
import { changelogUrl } from "../rest/lifecycle-verdict";
import { deprecateEndpoint, listLifecycles, restoreEndpoint } from "../rest/endpoint-lifecycle";
import type { Lifecycle } from "../rest/lifecycle-store";
import { fail } from "./commands";

/** A date (2027-06-01: that day at 00:00 UTC) or an instant with its offset (2027-03-01T14:00:00Z). */
const instant = (value: string, option: string) => {
  const text = value.trim();
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(text) ||
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
  const date = new Date(/T/.test(text) ? text : `${text}T00:00:00Z`);
  return valid && !Number.isNaN(date.getTime())
    ? date
    : fail(
        `${option} must be a date (2027-06-01) or an instant with its offset (2027-03-01T14:00:00Z), not "${value}"`,
      );
};

const brownout = (value: string) => {
  const parts = value.split("/");
  if (parts.length !== 2) fail(`--brownout must be START/END, not "${value}"`);
  return { start: instant(parts[0], "--brownout START"), end: instant(parts[1], "--brownout END") };
};

const describe = (lifecycle: Lifecycle) => ({
  operation_id: lifecycle.operationId,
  deprecated_at: lifecycle.deprecatedAt.toISOString(),
  sunset: lifecycle.sunsetAt.toISOString(),
  replacement: lifecycle.replacement,
  brownouts: lifecycle.brownouts.map((window) => ({
    start: window.start.toISOString(),
    end: window.end.toISOString(),
  })),
  changelog: changelogUrl(lifecycle),
});

const withZodMessages = async <T>(run: () => Promise<T>) => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ZodError)
      return fail(error.issues.map((issue) => issue.message).join("; "));
    throw error;
  }
};

export const deprecateCommand = (
  operationId: string | undefined,
  options: { sunset?: string; replacement?: string; brownout?: string[] },
) =>
  withZodMessages(async () => {
    if (!operationId)
      fail(
        'usage: endpoint:deprecate "METHOD /api/v1/path" --sunset DATE --replacement URL [--brownout START/END]...',
      );
    if (!options.sunset) fail("--sunset is required");
    const { lifecycle, notified } = await deprecateEndpoint({
      operationId: operationId!,
      sunset: instant(options.sunset!, "--sunset"),
      replacement: options.replacement ?? "",
      brownouts: (options.brownout ?? []).map(brownout),
      now: systemClock.now(),
    });
    return { ...describe(lifecycle), notified };
  });

export const restoreCommand = (operationId: string | undefined) =>
  withZodMessages(async () => {
    if (!operationId) fail('usage: endpoint:restore "METHOD /api/v1/path"');
    const { operationId: id, restored } = await restoreEndpoint(operationId!);
    return { operation_id: id, restored };
  });

export const listCommand = async () => ({
  endpoints: (await listLifecycles(systemClock.now())).map(({ lifecycle, state }) => ({
    ...describe(lifecycle),
    state,
  })),
});
