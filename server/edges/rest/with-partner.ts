/**
 * The one wrapper every /api/v1 route uses: request id, bearer authentication (401 with
 * WWW-Authenticate), rate limits and their headers, the caller check of the procedure's meta (403;
 * the one check of the call, handed to the procedure: admission.ts), zod parsing of query and
 * path parameters, selected headers and the JSON body (422 naming each field; 415 for a body that
 * is not JSON, 413 for one over the size limit), the operation's lifecycle (deprecation headers,
 * 410 retired: lifecycle.ts), and mapping of every error to the shared body.
 * Route files only parse and call the caller.
 */
import { z } from "zod";
import { authenticateBearer, bearerOwnerHint } from "../../auth";
import { challengeHeaders } from "./bearer-challenge";
import { systemClock } from "../../platform/clock";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { AppError } from "../../core/errors";
import { type Actor, createInnerContext } from "../../platform/trpc/context";
import { admit } from "../../platform/trpc/admission";
import { type Caller, createCaller } from "../trpc/caller";
import type { OperationId, OperationMeta } from "./operation";
import { recordCall } from "./call-log";
import { readJsonBody } from "./json-body";
import { lifecycleVerdict, type LifecycleVerdict } from "./lifecycle-verdict";
import { declaredKeys, prepareInput } from "./request-fields";
import {
  consumePartnerRateLimit,
  rateLimitHeaders,
  type RateLimitState,
} from "../../platform/rate-limit";
import { clientRequestIdOf, requestIdFrom } from "../../platform/http/request-id";
import { errorResponse, toAppError } from "../../platform/http/respond";
import { zodFields } from "../../core/zod-fields";
import { noteRequest } from "../../platform/observability/request-scope";

type HeaderSchema = z.ZodObject<Record<string, z.ZodType>>;

type Options<
  Q extends z.ZodType,
  P extends z.ZodType,
  B extends z.ZodType,
  H extends HeaderSchema,
> = {
  /** The operation table entry served (server/edges/rest/rest-router.ts knows it from the match): the key of its live lifecycle and of the call log. */
  operationId: OperationId;
  /** The meta of the procedure served: who may call it, with which scope. */
  meta: OperationMeta;
  query?: Q;
  /** Query parameters that may repeat (size=S&size=M). */
  arrays?: readonly string[];
  params?: P;
  /** The JSON body's schema; without it the body is ignored. */
  body?: B;
  /** Largest accepted body in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** Request headers to parse, keyed by their name as documented (e.g. "Idempotency-Key"). */
  headers?: H;
};

type HandlerArgs<
  Q extends z.ZodType,
  P extends z.ZodType,
  B extends z.ZodType,
  H extends HeaderSchema,
> = {
  caller: Caller;
  actor: Actor;
  query: z.output<Q>;
  params: z.output<P>;
  body: z.output<B>;
  headers: z.output<H>;
  request: Request;
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };

/** What an operation without a query or body schema takes: nothing (unknown fields dropped, protected ones refused). */
const ZNothing = z.object({});
const methodsWithBody = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Query string to a plain object; a declared scalar given twice is refused rather than silently
 * picking one (an undeclared one is dropped later anyway: request-fields.ts).
 */
const searchParamsToObject = (
  params: URLSearchParams,
  arrays: readonly string[] = [],
  declared?: ReadonlySet<string>,
) => {
  const result: Record<string, string | string[]> = {};
  const fields: Record<string, string> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (arrays.includes(key)) result[key] = values;
    else if (values.length > 1 && (!declared || declared.has(key)))
      fields[key] = "must be given once";
    else result[key] = values[0];
  }
  if (Object.keys(fields).length) throw new AppError("invalid_request", { fields });
  return result;
};

const parseWith = <S extends z.ZodType>(schema: S | undefined, value: unknown): z.output<S> => {
  if (!schema) return undefined as z.output<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError("invalid_request", { fields: zodFields(result.error) });
  return result.data;
};

/** This resource server as its challenges name it (bearer-challenge.ts). */
const restResource = () => ({
  realm: "shopping-api",
  metadataUrl: `${env().PUBLIC_URL}/.well-known/oauth-protected-resource/api/v1`,
});

/** The declared headers as an object (absent ones undefined); duplicates arrive joined by ", " and fail their pattern. */
const headerObject = (schema: HeaderSchema | undefined, request: Request) =>
  schema
    ? Object.fromEntries(
        Object.keys(schema.shape).map((name) => [name, request.headers.get(name) ?? undefined]),
      )
    : undefined;

/** Cache-Control: no-cache asks for an answer computed now (skips the short search page cache). */
export const wantsFreshAnswer = (headers: Headers) =>
  /no-cache|no-store|max-age=0/i.test(headers.get("cache-control") ?? "");

export const withPartner =
  <
    Q extends z.ZodType = z.ZodUndefined,
    P extends z.ZodType = z.ZodUndefined,
    B extends z.ZodType = z.ZodUndefined,
    H extends HeaderSchema = HeaderSchema,
  >(
    options: Options<Q, P, B, H>,
    handler: (args: HandlerArgs<Q, P, B, H>) => Promise<Response>,
  ) =>
  async (request: Request, context?: RouteContext): Promise<Response> => {
    // The front door already assigned the id and wrote it on the request (server/platform/http/request-id.ts).
    const requestId = requestIdFrom(request.headers.get("x-request-id"));
    let limits: RateLimitState = [];
    let lifecycle: LifecycleVerdict = { headers: {} };
    const headers = () => ({
      "X-Request-Id": requestId,
      ...rateLimitHeaders(limits),
      ...lifecycle.headers,
    });
    try {
      const url = new URL(request.url);
      const { operationId } = options;
      noteRequest({ operationId });
      const now = systemClock.now();
      // Read first so every answer, a 401 included, carries the deprecation headers.
      lifecycle = await lifecycleVerdict(operationId, now);
      const database = db();
      const authorization = request.headers.get("authorization");
      // A token this process accepted before names its client and person, which never change: the
      // rate limit counts beside the token's check (one wait less), and is used only once the check
      // passes. A token failing it has spent that point, once (its owner is then forgotten).
      const owner = bearerOwnerHint(authorization);
      const counting = owner && consumePartnerRateLimit(owner);
      counting?.catch(() => undefined); // awaited below, or dropped with the 401
      const actor = await authenticateBearer(authorization, now);
      if (actor.kind !== "client") throw new AppError("unauthorized");
      noteRequest({ clientId: actor.clientId, personId: actor.personId });
      recordCall(actor.clientId, operationId, now);
      // The remembered owner is the actor the check found: a token's client and person never change.
      limits = await (counting ?? consumePartnerRateLimit(actor));
      // A retired operation (after its sunset, or in a brownout) answers 410 only to a valid token,
      // counted like any call: an invalid token is 401 as on every operation (the reference), and the
      // 410 carries the rate-limit headers of every partner response (DESIGN.md).
      if (lifecycle.retired) throw lifecycle.retired;
      // Before any parsing (403 before 422); the procedure takes this verdict rather than checking again.
      const admitted = { meta: options.meta, admission: admit(options.meta, actor) };
      // Every part is parsed before refusing, so one 422 names every bad field at once.
      const fields: Record<string, string> = {};
      const collect = <S extends z.ZodType>(schema: S | undefined, value: unknown): z.output<S> => {
        try {
          return parseWith(schema, value);
        } catch (error) {
          if (!(error instanceof AppError && error.options.fields)) throw error;
          Object.assign(fields, error.options.fields);
          return undefined as z.output<S>;
        }
      };
      // Unknown query parameters and body fields are dropped, protected ones refused (request-fields.ts).
      const querySchema = options.query ?? ZNothing;
      const bodySchema =
        options.body ?? (methodsWithBody.has(request.method) ? ZNothing : undefined);
      const rawQuery = prepareInput(
        querySchema,
        searchParamsToObject(url.searchParams, options.arrays, declaredKeys(querySchema)),
        fields,
      );
      const rawParams = context ? await context.params : {};
      const rawBody = bodySchema
        ? prepareInput(bodySchema, await readJsonBody(request, options.maxBodyBytes), fields)
        : undefined;
      const query = collect(options.query, rawQuery);
      const params = collect(options.params, rawParams);
      const headerValues = collect(
        options.headers,
        headerObject(options.headers, request),
      ) as z.output<H>;
      const body = collect(options.body, rawBody);
      if (Object.keys(fields).length) throw new AppError("invalid_request", { fields });
      const caller = createCaller(
        createInnerContext({
          db: database,
          actor,
          admitted,
          requestId,
          clientRequestId: clientRequestIdOf(request.headers),
          wantsFresh: wantsFreshAnswer(request.headers),
        }),
      );
      const response = await handler({
        caller,
        actor,
        query,
        params,
        body,
        headers: headerValues,
        request,
      });
      for (const [name, value] of Object.entries(headers())) response.headers.set(name, value);
      return response;
    } catch (error) {
      const appError = toAppError(error, requestId, clientRequestIdOf(request.headers));
      return errorResponse(appError, {
        ...headers(),
        ...challengeHeaders(appError, request, restResource()),
      });
    }
  };
