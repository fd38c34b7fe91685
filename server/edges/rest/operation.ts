/**
 * What one public /api/v1 operation declares, once: its key ("METHOD /api/v1/path", OpenAPI path
 * form), MCP tool name, the procedure it calls, input and output zod schemas, words for the
 * OpenAPI document, and the call. Who may call it and the scope it needs are not written here:
 * they are the procedure's meta (server/platform/trpc/init.ts), read through `procedure`, so the
 * REST check (with-partner.ts), the OpenAPI security and 403 (openapi.ts) and the MCP tool scopes
 * cannot disagree with the procedure. Not its lifecycle either: deprecation, brownouts and
 * retirement are set at run time (ops endpoint:deprecate) and live only in the database, keyed by
 * `id` (server/edges/rest/lifecycle-store.ts). REST routing (server/edges/rest/rest-router.ts, used
 * by the lean layer and by Next's catch-all), the OpenAPI document (server/edges/rest/openapi.ts)
 * and the MCP tools read it. The list itself is server/edges/rest/operations.ts.
 */
import type { z } from "zod";
import type { ZodOpenApiResponsesObject } from "zod-openapi";
import type { Scope } from "../../auth";
import { type Meta, scopeList } from "../../platform/trpc/init";
import type { Caller } from "../trpc/caller";
import { procedureMeta, type ProcedurePath } from "../trpc/procedure-meta";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The operation's key, also the key of its live lifecycle (deprecation, brownouts, retirement): "GET /api/v1/products/{id}". */
export type OperationId = `${Method} /api/v1/${string}`;

/**
 * The callers an operation's procedure may declare: a token with a scope (partner, person,
 * assistant) or any token of the client ("client": what it configures about itself, no scope).
 */
export type OperationMeta = Extract<
  Meta,
  { caller: "partner" | "person" | "assistant" | "client" }
>;

const isOperationMeta = (meta: Meta | undefined): meta is OperationMeta =>
  meta !== undefined && ["partner", "person", "assistant", "client"].includes(meta.caller);

/** The scopes that admit the operation's token, any one of them; none when any token of the client may call it. */
export const acceptedScopes = (entry: { meta: OperationMeta }): readonly Scope[] =>
  "scope" in entry.meta ? scopeList(entry.meta.scope) : [];

/** The scope the operation's token needs (the first of its alternatives); null when any token of the client may call it. */
export const scopeOf = (entry: { meta: OperationMeta }): Scope | null =>
  acceptedScopes(entry)[0] ?? null;

type HeaderSchema = z.ZodObject<Record<string, z.ZodType>>;

/** What the procedure call answers: the body (the output schema's shape), and the status and headers when not the default. */
type Reply = { body: unknown; status?: number; headers?: Record<string, string> };

type CallArgs<
  Q extends z.ZodType,
  P extends z.ZodType,
  B extends z.ZodType,
  H extends HeaderSchema,
> = {
  caller: Caller;
  query: z.output<Q>;
  params: z.output<P>;
  body: z.output<B>;
  headers: z.output<H>;
};

/** What every entry declares besides its token and success rules. */
type OperationParts<
  Q extends z.ZodType,
  P extends z.ZodType,
  B extends z.ZodType,
  H extends HeaderSchema,
> = {
  id: OperationId;
  /** The procedure it calls, whose meta says who may call it and with what scope: "purchases.create". */
  procedure: ProcedurePath;
  /** The MCP tool that is this operation (issue 11), if any. */
  tool?: string;
  input: {
    /** Path parameters, named as in the path ({id} is `id`). */
    params?: P;
    query?: Q;
    /** Query parameters that may repeat (size=S&size=M). */
    queryArrays?: readonly string[];
    body?: B;
    /** False when the body may be left out (default true when there is a body schema). */
    bodyRequired?: boolean;
    /** Largest accepted body in bytes (default 64 KiB). */
    maxBodyBytes?: number;
    /** Request headers, keyed by their documented name (e.g. "Idempotency-Key"). */
    headers?: H;
  };
  summary: string;
  description?: string;
  /** Description of the success response (default "OK", "No content" for a 204). */
  outputDescription?: string;
  /** The operation's own responses beyond the success one and the common errors (server/edges/rest/openapi-parts.ts). */
  responses?: ZodOpenApiResponsesObject;
  /** OpenAPI operationId (camelCase, stable: generated clients name their functions after it). */
  operationId: string;
  /** Calls the procedure with the parsed input. Method syntax so every entry fits the list's type. */
  call(args: CallArgs<Q, P, B, H>): Promise<Reply>;
};

/** The success answer: a body (`output`) with its status (default 200), or 204 and no body (the call's `body` is ignored). */
type SuccessRule =
  { output: z.ZodType; status?: 200 | 201 | 202 } | { output?: undefined; status: 204 };

export type OperationSpec<
  Q extends z.ZodType,
  P extends z.ZodType,
  B extends z.ZodType,
  H extends HeaderSchema,
> = OperationParts<Q, P, B, H> & SuccessRule;

export type Operation<
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  H extends HeaderSchema = HeaderSchema,
> = OperationParts<Q, P, B, H> & {
  /** Its procedure's meta: who may call it and the scope the token needs. */
  meta: OperationMeta;
  method: Method;
  /** The OpenAPI path, relative to the server URL /api/v1: "/products/{id}". */
  path: string;
  /** The success body's schema; none for a 204. */
  output?: z.ZodType;
  status: 200 | 201 | 202 | 204;
};

/**
 * One entry of the table: types the call's arguments from the schemas, splits the id into method
 * and path, and reads its procedure's meta (an unknown path or a procedure no token may call fails
 * at load).
 */
export const defineOperation = <
  Q extends z.ZodType = z.ZodUndefined,
  P extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  H extends HeaderSchema = HeaderSchema,
>(
  spec: OperationSpec<Q, P, B, H>,
): Operation<Q, P, B, H> => {
  const [method, full] = spec.id.split(" ") as [Method, string];
  const meta = procedureMeta(spec.procedure);
  if (!isOperationMeta(meta))
    throw new Error(
      `${spec.id}: ${spec.procedure} declares no partner, person, assistant or client caller`,
    );
  return { ...spec, meta, method, path: full.slice("/api/v1".length), status: spec.status ?? 200 };
};
