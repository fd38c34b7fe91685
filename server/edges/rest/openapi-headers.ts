/**
 * The response headers of /api/v1 (DESIGN.md "Headers") as the OpenAPI document declares them:
 * each once in components.headers, and which responses reference which, decided here for every
 * operation of the table (openapi.ts).
 */
import { z } from "zod";
import type { Operation } from "./operation";

type HeaderName =
  | "X-Request-Id"
  | "RateLimit-Limit"
  | "RateLimit-Remaining"
  | "RateLimit-Reset"
  | "RateLimit-Policy"
  | "Retry-After"
  | "WWW-Authenticate"
  | "Idempotent-Replayed"
  | "Deprecation"
  | "Sunset"
  | "Link";
type Header = {
  description: string;
  schema: {
    type: "string" | "integer";
    minimum?: number;
    maximum?: number;
    example?: number;
    enum?: string[];
  };
};

const text: Header["schema"] = { type: "string" };
const count = (example: number): Header["schema"] => ({
  type: "integer",
  minimum: 0,
  maximum: 2_147_483_647,
  example,
});

/** components.headers: what each header says, written once. */
export const responseHeaderComponents: Record<HeaderName, Header> = {
  "X-Request-Id": {
    description: "Our id of this request, on every response; quote it when reporting a problem",
    schema: text,
  },
  "RateLimit-Limit": {
    description: "Requests allowed in the tightest rate-limit window (partner responses)",
    schema: count(120),
  },
  "RateLimit-Remaining": {
    description: "Requests left in the tightest rate-limit window",
    schema: count(87),
  },
  "RateLimit-Reset": {
    description: "Seconds until the tightest rate-limit window resets",
    schema: count(42),
  },
  "RateLimit-Policy": {
    description:
      'The rate-limit windows counted for this client, e.g. "minute";q=120;w=60, "hour";q=3000;w=3600',
    schema: text,
  },
  "Retry-After": {
    description:
      "Seconds to wait before retrying (429 rate_limited, 503 unavailable, 409 idempotency_key_in_use)",
    schema: count(30),
  },
  "WWW-Authenticate": {
    description:
      "The Bearer challenge (RFC 6750): resource_metadata, and error=invalid_token for a token that is not valid",
    schema: text,
  },
  "Idempotent-Replayed": {
    description:
      "true when this is the stored answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
  Deprecation: {
    description:
      "Only while the operation is deprecated: when it was deprecated, as @<epoch seconds> (RFC 9745)",
    schema: text,
  },
  Sunset: {
    description:
      "Only while the operation is deprecated: the HTTP date from which it answers 410 retired (RFC 8594)",
    schema: text,
  },
  Link: {
    description:
      'Only while the operation is deprecated: its replacement (rel="deprecation") and its changelog entry (rel="sunset")',
    schema: text,
  },
};

const refs = (names: readonly HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** An operation that reads Idempotency-Key: it replays answers and may refuse 409 while the first runs. */
export const isIdempotent = (entry: Pick<Operation, "input">) => {
  const { headers } = entry.input;
  return headers instanceof z.ZodObject && "Idempotency-Key" in headers.shape;
};

/**
 * The headers a response of `entry` with `status` carries: X-Request-Id and RateLimit-* on all, and
 * Deprecation, Sunset and Link on all while the operation is deprecated (a live state, set in the
 * database at any time: lifecycle-verdict.ts; the served document then marks it deprecated).
 */
const headersOf = (entry: Pick<Operation, "input" | "status">, status: number) => {
  const names: HeaderName[] = [
    "X-Request-Id",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
    "Deprecation",
    "Sunset",
    "Link",
  ];
  if (status === 401) names.push("WWW-Authenticate");
  if (status === 429 || status === 503) names.push("Retry-After");
  if (isIdempotent(entry)) {
    if (status === 409) names.push("Retry-After");
    // Replays repeat the first answer, success or refusal, with this header.
    if (status < 500 && ![401, 403, 429, 413, 415, 431].includes(status))
      names.push("Idempotent-Replayed");
  }
  return refs(names);
};

type Responses = Record<string | number, object | undefined>;

/** `responses` with each one's headers referenced (a response's own headers kept). */
export const withResponseHeaders = <R extends Responses>(
  entry: Pick<Operation, "input" | "status">,
  responses: R,
): R =>
  Object.fromEntries(
    Object.entries(responses)
      .filter(([, response]) => response !== undefined)
      .map(([status, response]) => [
        status,
        {
          ...response,
          headers: {
            ...headersOf(entry, Number(status)),
            ...(response as { headers?: object }).headers,
          },
        },
      ]),
  ) as R;
