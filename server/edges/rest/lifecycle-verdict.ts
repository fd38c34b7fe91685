/**
 * What an operation's lifecycle does to its answers, given the operation id
 * ("GET /api/v1/categories"): a deprecated one carries `Deprecation` (RFC 9745, `@<epoch
 * seconds>`), `Sunset` (RFC 8594, an HTTP date) and `Link` (rel="deprecation" to the replacement,
 * rel="sunset" to its changelog entry) on every response; during a brownout window and from the
 * sunset on it answers 410 `retired` with the same headers. withPartner applies it to every REST
 * response (the REST router passes the matched table entry's id); the MCP connector calls
 * `retiredErrorFor` with the tool's entry id, so both refuse at the same moments. The OpenAPI
 * document marks the same operations deprecated. The live state (endpoint_lifecycles, read at most
 * a second late: lifecycle-store.ts) is the only record of it; the table entries carry none.
 */
import type { Operation } from "./operation";
import { systemClock } from "../../platform/clock";
import { env } from "../../platform/env";
import { AppError } from "../../core/errors";
import { currentLifecycles, type Lifecycle } from "./lifecycle-store";

/** The changelog entry announcing the lifecycle (the rel="sunset" target). */
export const changelogUrl = (lifecycle: Pick<Lifecycle, "changelogAnchor">) =>
  `${env().PUBLIC_URL}/changelog#${lifecycle.changelogAnchor}`;

/** The three headers of a deprecated operation. */
const lifecycleHeaders = (lifecycle: Lifecycle): Record<string, string> => ({
  Deprecation: `@${Math.floor(lifecycle.deprecatedAt.getTime() / 1000)}`,
  Sunset: lifecycle.sunsetAt.toUTCString(),
  Link: `<${lifecycle.replacement}>; rel="deprecation", <${changelogUrl(lifecycle)}>; rel="sunset"`,
});

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The `retired` error when the operation answers as retired at `now` (after its sunset, or in a brownout), else undefined. */
export const retiredError = (lifecycle: Lifecycle, now: Date): AppError | undefined => {
  const headers = lifecycleHeaders(lifecycle);
  if (now >= lifecycle.sunsetAt) {
    return new AppError("retired", {
      message: `${lifecycle.operationId} was retired on ${day(lifecycle.sunsetAt)}; use ${lifecycle.replacement}.`,
      headers,
    });
  }
  const brownout = lifecycle.brownouts.find((window) => now >= window.start && now < window.end);
  if (!brownout) return undefined;
  return new AppError("retired", {
    message: `${lifecycle.operationId} is in an announced brownout until ${brownout.end.toISOString()} before its sunset on ${day(lifecycle.sunsetAt)}; use ${lifecycle.replacement}.`,
    headers,
  });
};

export type LifecycleVerdict = { headers: Record<string, string>; retired?: AppError };

/** Headers to add to the operation's response at `now`, and the error to answer instead when it is retired. */
export const lifecycleVerdict = async (
  operationId: string,
  now: Date,
): Promise<LifecycleVerdict> => {
  const lifecycle = (await currentLifecycles()).get(operationId);
  if (!lifecycle) return { headers: {} };
  return { headers: lifecycleHeaders(lifecycle), retired: retiredError(lifecycle, now) };
};

/** For the MCP connector: the `retired` error of the tool's operation right now, or undefined when it may run. */
export const retiredErrorFor = async (operationId: string, now: Date = systemClock.now()) =>
  (await lifecycleVerdict(operationId, now)).retired;

type Paths = Record<string, Record<string, unknown> | undefined>;

/**
 * The OpenAPI document with each operation deprecated right now (its table entry's id has a live
 * lifecycle) marked `deprecated: true`, its dates and replacement at the end of its description.
 * Returns a copy; the cached document is not changed.
 */
export const markDeprecated = <D extends { paths?: object }>(
  document: D,
  entries: readonly Pick<Operation, "id" | "method" | "path">[],
  lifecycles: ReadonlyMap<string, Lifecycle>,
): D => {
  if (!lifecycles.size) return document;
  const paths: Paths = { ...(document.paths as Paths | undefined) };
  for (const entry of entries) {
    const lifecycle = lifecycles.get(entry.id);
    const method = entry.method.toLowerCase();
    const operation = paths[entry.path]?.[method] as { description?: string } | undefined;
    if (!lifecycle || !operation) continue;
    const brownouts = lifecycle.brownouts.map(
      (window) => `${window.start.toISOString()} to ${window.end.toISOString()}`,
    );
    const notice = [
      `Deprecated on ${day(lifecycle.deprecatedAt)}; sunset on ${day(lifecycle.sunsetAt)} (from then it answers 410 retired). Use ${lifecycle.replacement} instead.`,
      brownouts.length ? `Brownouts (answers 410 retired): ${brownouts.join(", ")}.` : "",
      `See ${changelogUrl(lifecycle)}.`,
    ]
      .filter(Boolean)
      .join(" ");
    paths[entry.path] = {
      ...paths[entry.path],
      [method]: {
        ...operation,
        deprecated: true,
        description: operation.description ? `${operation.description}\n\n${notice}` : notice,
      },
    };
  }
  return { ...document, paths };
};
