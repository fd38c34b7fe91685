/**
 * REST routing from the operation table: one find-my-way router over every entry's path, each method
 * served by `withPartner` with the entry's procedure meta and schemas and answered with the entry's status.
 * Next's catch-all (app/api/v1/[...path]/route.ts) exports `handleRestRequest` for every method, so
 * the same code answers whether the lean layer (server/edges/http/lean-api.ts, which serves that route
 * module like any other) or Next is in front. Around the match it does what Next does for a route
 * file: HEAD runs GET, OPTIONS answers 204 with Allow, a method the path lacks is 405 with Allow, and
 * a path no entry has is the JSON 404.
 */
import findMyWay from "find-my-way";
import { AppError } from "../../core/errors";
import { errorResponse, json } from "../../platform/http/respond";
import { withPartner } from "./with-partner";
import type { Operation, OperationId } from "./operation";
import { operations } from "./operations";

type Handler = (
  request: Request,
  context?: { params: Promise<Record<string, string>> },
) => Promise<Response>;
type Store = { handlers: Map<string, Handler>; allow: string };

/** The entry as a route handler: the shared wrapper with the entry's declarations, then its call. */
const toHandler = (entry: Operation): Handler =>
  withPartner(
    {
      operationId: entry.id,
      meta: entry.meta,
      query: entry.input.query,
      arrays: entry.input.queryArrays,
      params: entry.input.params,
      body: entry.input.body,
      maxBodyBytes: entry.input.maxBodyBytes,
      headers: entry.input.headers,
    },
    async (args) => {
      const reply = await entry.call(args);
      const status = reply.status ?? entry.status;
      return status === 204
        ? new Response(null, { status, headers: reply.headers })
        : json(reply.body, status, reply.headers);
    },
  );

/** "/products/{id}" as find-my-way's "/api/v1/products/:id". */
export const routerPath = (path: string) => `/api/v1${path.replace(/\{([^}]+)\}/g, ":$1")}`;

/** The methods Next would list in Allow for a route file exporting these (HEAD with GET, OPTIONS always). */
const allowHeader = (methods: string[]) =>
  [...new Set([...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"])]
    .sort()
    .join(", ");

const handlersById = new Map<string, Handler>(
  operations.map((entry) => [entry.id, toHandler(entry)]),
);

/** The route handler of one operation, taking its path parameters from the context as Next passes them (integration tests call it). */
export const operationHandler = (id: OperationId): Handler => {
  const handler = handlersById.get(id);
  if (!handler) throw new Error(`No operation ${id} in server/edges/rest/operations.ts`);
  return handler;
};

const buildRouter = (entries: readonly Operation[]) => {
  const byPath = new Map<string, Map<string, Handler>>();
  for (const entry of entries) {
    const path = routerPath(entry.path);
    const handlers = byPath.get(path) ?? new Map<string, Handler>();
    if (handlers.has(entry.method)) throw new Error(`Two operations are ${entry.id}`);
    handlers.set(entry.method, operationHandler(entry.id));
    byPath.set(path, handlers);
  }
  // Paths only, the method dispatched after the match (as Next's app-route module does): a known path with another method is 405, not 404.
  const router = findMyWay<findMyWay.HTTPVersion.V1>({ maxParamLength: 16 * 1024 });
  for (const [path, handlers] of byPath)
    router.on("GET", path, () => undefined, {
      handlers,
      allow: allowHeader([...handlers.keys()]),
    } satisfies Store);
  return router;
};

const router = buildRouter(operations);

const notFound = () =>
  errorResponse(
    new AppError("not_found", { message: "No endpoint at this path; see /api/v1/openapi.json." }),
  );

/** Answers any request under /api/v1 that no other route file took. */
export const handleRestRequest = async (request: Request): Promise<Response> => {
  const match = router.find("GET", new URL(request.url).pathname);
  if (!match) return notFound();
  const { handlers, allow } = match.store as Store;
  const handler =
    handlers.get(request.method) ?? (request.method === "HEAD" ? handlers.get("GET") : undefined);
  if (handler)
    return handler(request, { params: Promise.resolve(match.params as Record<string, string>) });
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow } });
  return errorResponse(
    new AppError("method_not_allowed", {
      message: `This endpoint does not accept ${request.method}.`,
      headers: { Allow: allow },
    }),
  );
};
