/**
 * Serves the partner API (app/api/v1/** and app/oauth/token) straight from node:http, in front of
 * Next.js, by calling the same exported route handlers (GET, POST, ... taking a standard Request and
 * returning a Response). Next's request pipeline costs about 1 ms of CPU per request, more than a
 * cached search answer; pages and every other route stay in Next (see docs/decisions.md).
 *
 * Routes are found from the file system like Next does: `[name]` is a parameter, `[...name]` a
 * catch-all, `(group)` folders do not count, and static segments win over parameters over
 * catch-alls. A route module without a handler for the method falls through to Next. Handlers
 * served here must not use next/headers (there is no Next request scope): they read the Request.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { errorResponse, toAppError } from "./respond";

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;
type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "catchAll"; name: string; isOptional: boolean };
type Route = { file: string; segments: Segment[]; module?: Record<string, unknown> };

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const parseSegment = (name: string): Segment | null => {
  if (/^\(.*\)$/.test(name)) return null; // route group
  const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(name);
  if (optional) return { kind: "catchAll", name: optional[1], isOptional: true };
  const catchAll = /^\[\.\.\.(.+)\]$/.exec(name);
  if (catchAll) return { kind: "catchAll", name: catchAll[1], isOptional: false };
  const param = /^\[(.+)\]$/.exec(name);
  if (param) return { kind: "param", name: param[1] };
  return { kind: "static", value: name };
};

/** Every route.ts under `dir` (relative to `appDir`), with its URL segments. */
const findRoutes = (appDir: string, dir: string): Route[] => {
  const absolute = path.join(appDir, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(appDir, relative)).isDirectory()) return findRoutes(appDir, relative);
    if (name !== "route.ts") return [];
    const segments = dir.split(path.sep).map(parseSegment).filter((segment): segment is Segment => segment !== null);
    return [{ file: path.join(appDir, relative), segments }];
  });
};

const rank = { static: 0, param: 1, catchAll: 2 } as const;

/** Next's precedence: at the first segment where two routes differ, static < param < catch-all. */
const bySpecificity = (a: Route, b: Route) => {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (!x || !y) return x ? -1 : 1;
    if (rank[x.kind] !== rank[y.kind]) return rank[x.kind] - rank[y.kind];
  }
  return 0;
};

const match = (route: Route, parts: string[]): Record<string, string | string[]> | null => {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const segment = route.segments[i];
    if (segment.kind === "catchAll") {
      const rest = parts.slice(i);
      if (!rest.length && !segment.isOptional) return null;
      if (rest.length) params[segment.name] = rest.map(decodeURIComponent);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.kind === "static" && segment.value !== part) return null;
    if (segment.kind === "param") params[segment.name] = decodeURIComponent(part);
  }
  return parts.length === route.segments.length ? params : null;
};

const toRequest = (request: IncomingMessage, origin: string) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(`${origin}${request.url}`, {
    method: request.method,
    headers,
    body: hasBody ? (Readable.toWeb(request) as ReadableStream) : undefined,
    duplex: "half",
  } as RequestInit);
};

const send = async (response: Response, to: ServerResponse) => {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body) headers["content-length"] = String(body.length);
  to.writeHead(response.status, headers);
  to.end(body);
};

/**
 * Loads the route modules under `appDir` for the given URL prefixes (through tsx, in the launcher)
 * and returns a handler that answers a matching request and returns true, or returns false so the
 * caller hands the request to Next.
 */
export const createLeanApi = async (options: { appDir: string; prefixes: string[]; origin: string }) => {
  const routes = options.prefixes.flatMap((prefix) => findRoutes(options.appDir, prefix)).sort(bySpecificity);
  for (const route of routes) route.module = (await import(route.file)) as Record<string, unknown>;
  const handle = (request: IncomingMessage, response: ServerResponse): boolean => {
    const method = request.method ?? "GET";
    if (!methods.includes(method)) return false;
    const pathname = (request.url ?? "/").split("?")[0];
    const parts = pathname.split("/").filter(Boolean);
    for (const route of routes) {
      const params = match(route, parts);
      if (!params) continue;
      const handler = route.module?.[method] as Handler | undefined;
      if (typeof handler !== "function") return false;
      void (async () => {
        try {
          await send(await handler(toRequest(request, options.origin), { params: Promise.resolve(params) }), response);
        } catch (error) {
          if (!response.headersSent) await send(errorResponse(toAppError(error)), response).catch(() => response.destroy());
          else response.destroy();
        }
      })();
      return true;
    }
    return false;
  };
  return { handle, routes: routes.map((route) => path.relative(options.appDir, route.file)) };
};
