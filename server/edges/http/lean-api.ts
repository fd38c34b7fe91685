/**
 * Serves the partner API (app/api/v1/** and app/oauth/token) straight from node:http, in front of
 * Next.js, by calling the same exported route handlers (GET, POST, ... taking a standard Request and
 * returning a Response). Next's request pipeline costs about 1 ms of CPU per request, more than a
 * cached search answer; pages and every other route stay in Next (see docs/adr/0025-lean-api-layer.md).
 *
 * Routes are found from the file system like Next does (`[name]` a parameter, `[...name]` a
 * catch-all, `(group)` folders do not count) and matched by find-my-way, whose precedence is Next's:
 * static over parameter over catch-all. What Next does around the match is copied, not guessed:
 * a trailing slash, repeated slashes or a backslash answer 308 to the clean path (query kept); a
 * method outside Next's seven is 400; a method the route lacks is 405 (with Allow); HEAD runs GET
 * and OPTIONS answers 204 with Allow when the route has none. A request under the prefixes that no
 * route matches goes to Next. Malformed targets, percent-encoding (path or query) and NUL get a JSON
 * 400. Handlers served here must not use next/headers (there is no Next request scope).
 *
 * The /api/v1 operations have no route files of their own: they are entries of the operation table
 * (server/edges/rest/operations.ts), answered by the catch-all app/api/v1/[...path]/route.ts through
 * server/edges/rest/rest-router.ts, which this layer serves like any other route module.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import findMyWay from "find-my-way";
import { oauthError } from "../../oauth";
import { AppError } from "../../core/errors";
import { send, sendError, sendRedirect } from "./node-response";
import { requestBodyStream } from "./request-body-stream";
import { assignRequestId, clientRequestIdOfNode } from "../../platform/http/request-id";
import { badRequest, checkQuery, decodePath, splitTarget } from "./request-target";
import { toAppError } from "../../platform/http/respond";

type Params = Record<string, string | string[]>;
type Handler = (
  request: Request,
  context: { params: Promise<Params> },
) => Promise<Response> | Response;
type Route = {
  file: string;
  pattern: string;
  catchAll?: { name: string; index: number };
  module: Record<string, unknown>;
};

/** Next's route handler methods (next/dist/server/web/http.js); any other method is a 400 there. */
const nextMethods = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"];

/** One app-dir folder name as a find-my-way segment; null for a route group. */
const toSegment = (
  name: string,
): { pattern: string; catchAll?: string; isOptional?: boolean } | null => {
  if (/^\(.*\)$/.test(name)) return null;
  const catchAll = /^(\[)?\[\.\.\.(.+?)\](\])?$/.exec(name);
  if (catchAll)
    return { pattern: "*", catchAll: catchAll[2], isOptional: Boolean(catchAll[1] && catchAll[3]) };
  const param = /^\[(.+)\]$/.exec(name);
  if (param) return { pattern: `:${param[1]}` };
  return { pattern: name };
};

/** Every route.ts under `dir` (relative to `appDir`), as a find-my-way pattern. */
const findRoutes = (appDir: string, dir: string): Omit<Route, "module">[] => {
  const absolute = path.join(appDir, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(appDir, relative)).isDirectory()) return findRoutes(appDir, relative);
    if (name !== "route.ts") return [];
    const segments = dir
      .split(path.sep)
      .map(toSegment)
      .filter((segment) => segment !== null);
    const catchAllIndex = segments.findIndex((segment) => segment.catchAll);
    const catchAll =
      catchAllIndex === -1
        ? undefined
        : { name: segments[catchAllIndex].catchAll!, index: catchAllIndex };
    const pattern = `/${segments.map((segment) => segment.pattern).join("/")}`;
    const route = { file: path.join(appDir, relative), pattern, catchAll };
    // An optional catch-all ([[...name]]) also matches its folder itself.
    const base = { ...route, pattern: pattern.replace(/\/\*$/, "") || "/", catchAll: undefined };
    return segments[catchAllIndex]?.isOptional ? [route, base] : [route];
  });
};

/** Where Next would redirect this path (repeated slashes, backslashes, a trailing slash), or null. */
const cleanPath = (pathname: string) => {
  const clean = pathname
    .replace(/\\/g, "/")
    .replace(/\/\/+/g, "/")
    .replace(/(.)\/$/, "$1");
  return clean === pathname ? null : clean;
};

const toRequest = (request: IncomingMessage, url: string): Request => {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const body = hasBody ? requestBodyStream(request) : undefined;
    return new Request(url, {
      method: request.method,
      headers,
      body,
      duplex: "half",
    } as RequestInit);
  } catch (error) {
    throw badRequest(`The request cannot be read (${(error as Error).message}).`);
  }
};

/** The layer's refusal: the shared error body, or RFC 6749's {"error", "error_description"} under /oauth/ (DESIGN.md). */
const refuse = (to: ServerResponse, requestId: string, error: AppError, pathname: string) => {
  if (!pathname.startsWith("/oauth/")) return sendError(to, requestId, error);
  const code =
    error.status >= 500
      ? error.status === 503
        ? "temporarily_unavailable"
        : "server_error"
      : "invalid_request";
  const headers = {
    ...(error.options.retryAfter ? { "Retry-After": String(error.options.retryAfter) } : {}),
    ...error.options.headers,
  };
  return send(oauthError(code, error.message, error.status, headers), to, requestId);
};

const allowed = (module: Record<string, unknown>) => {
  const methods = new Set(nextMethods.filter((method) => typeof module[method] === "function"));
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return [...methods].sort().join(", ");
};

/**
 * Loads the route modules under `appDir` for the given URL prefixes (through tsx, in the launcher)
 * and returns a handler that answers a request under those prefixes and returns true, or returns
 * false so the caller hands the request to Next. Nothing it is given can make it throw or leave a
 * request unanswered.
 */
export const createLeanApi = async (options: {
  appDir: string;
  prefixes: string[];
  origin: string;
  /**
   * How a route module is loaded: import() unless told; the launcher passes require, as it registers
   * only tsx's CommonJS hook (server/start.ts).
   */
  loadModule?: (file: string) => unknown;
}) => {
  const loadModule = options.loadModule ?? ((file: string) => import(file));
  const found = options.prefixes.flatMap((prefix) => findRoutes(options.appDir, prefix));
  // Paths only: the method is dispatched below, as Next's app-route module does after matching.
  const router = findMyWay<findMyWay.HTTPVersion.V1>({ maxParamLength: 16 * 1024 });
  const routes: Route[] = [];
  for (const entry of found) {
    const route: Route = {
      ...entry,
      module: (await loadModule(entry.file)) as Record<string, unknown>,
    };
    router.on("GET", route.pattern, () => undefined, route);
    routes.push(route);
  }
  const prefixes = options.prefixes.map((prefix) => `/${prefix}`);
  const isUnderPrefix = (pathname: string) =>
    prefixes.some(
      (prefix) =>
        pathname === prefix ||
        pathname.startsWith(`${prefix}/`) ||
        pathname.startsWith(`${prefix}\\`),
    );

  /** Answers the request, or returns false when it is Next's. Throws an AppError to refuse it. */
  const serve = (
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
  ): boolean => {
    const { target, pathname, query } = splitTarget(request.url ?? "");
    if (!isUnderPrefix(pathname)) return false;
    const redirect = cleanPath(pathname);
    if (redirect !== null) {
      sendRedirect(response, requestId, `${redirect}${query}`);
      return true;
    }
    const segments = decodePath(pathname);
    checkQuery(query);
    const match = router.find("GET", pathname);
    if (!match) return false;
    const route = match.store as Route;
    const method = request.method ?? "";
    if (!nextMethods.includes(method)) throw badRequest(`The method ${method} is not supported.`);
    const handler = (route.module[method] ?? (method === "HEAD" ? route.module.GET : undefined)) as
      Handler | undefined;
    const params: Params = { ...(match.params as Record<string, string>) };
    if (route.catchAll) {
      delete params["*"];
      params[route.catchAll.name] = segments.slice(route.catchAll.index);
    }
    const webRequest =
      typeof handler === "function" ? toRequest(request, `${options.origin}${target}`) : undefined;
    void (async () => {
      try {
        if (!handler || !webRequest) {
          const allow = allowed(route.module);
          if (method !== "OPTIONS")
            throw new AppError("method_not_allowed", {
              message: `This endpoint does not accept ${method}.`,
              headers: { Allow: allow },
            });
          return await send(
            new Response(null, { status: 204, headers: { allow } }),
            response,
            requestId,
          );
        }
        await send(
          await handler(webRequest, { params: Promise.resolve(params) }),
          response,
          requestId,
        );
      } catch (error) {
        await refuse(
          response,
          requestId,
          toAppError(error, requestId, clientRequestIdOfNode(request)),
          pathname,
        );
      }
    })().catch(() => response.destroy());
    return true;
  };

  const handle = (request: IncomingMessage, response: ServerResponse): boolean => {
    const requestId = assignRequestId(request);
    try {
      return serve(request, response, requestId);
    } catch (error) {
      void refuse(
        response,
        requestId,
        toAppError(error, requestId, clientRequestIdOfNode(request)),
        request.url ?? "",
      ).catch(() => response.destroy());
      return true;
    }
  };
  return {
    handle,
    routes: [...new Set(routes.map((route) => path.relative(options.appDir, route.file)))],
  };
};
