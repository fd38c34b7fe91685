/**
 * The typed partner client: openapi-fetch over the types openapi-typescript generated from
 * /api/v1/openapi.json (sdk/schema.d.ts), plus what every partner otherwise writes by hand:
 * - tokens: client credentials, or a person's refresh token rotated on every use (the new one is
 *   handed to `onRotate` to store; the service revokes the grant if an old one is replayed),
 *   fetched before expiry, one request at a time;
 * - an Idempotency-Key (a random UUID) on every POST that has none, kept across retries;
 * - retries of 429 and 503 after Retry-After (at most `maxRetries`, each wait at most 60 s).
 */
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema";

export type { paths, components, operations } from "./schema";

export type Credentials =
  | { grant: "client_credentials"; clientId: string; clientSecret: string; scope?: string }
  | {
      grant: "refresh_token";
      clientId: string;
      clientSecret?: string;
      refreshToken: string;
      onRotate?: (refreshToken: string) => void;
    }
  | { grant: "access_token"; accessToken: string };

export type ShoppingClientOptions = {
  /** The service's origin, e.g. http://localhost:3000. */
  origin: string;
  credentials: Credentials;
  fetch?: typeof fetch;
  maxRetries?: number;
  newIdempotencyKey?: () => string;
};

type Token = { value: string; expiresAt: number };

const basic = (id: string, secret: string) =>
  `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;

/** A source of access tokens for `credentials`, refreshed 30 s before they expire. */
export const tokenSource = (options: {
  origin: string;
  credentials: Credentials;
  fetch: typeof fetch;
}) => {
  const { credentials } = options;
  let current: Token | undefined;
  let pending: Promise<Token> | undefined;
  const request = async (): Promise<Token> => {
    if (credentials.grant === "access_token")
      return { value: credentials.accessToken, expiresAt: Number.POSITIVE_INFINITY };
    const form = new URLSearchParams({ grant_type: credentials.grant });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (credentials.grant === "client_credentials") {
      if (credentials.scope) form.set("scope", credentials.scope);
      headers.authorization = basic(credentials.clientId, credentials.clientSecret);
    } else {
      form.set("refresh_token", credentials.refreshToken);
      if (credentials.clientSecret)
        headers.authorization = basic(credentials.clientId, credentials.clientSecret);
      else form.set("client_id", credentials.clientId);
    }
    const response = await options.fetch(`${options.origin}/oauth/token`, {
      method: "POST",
      headers,
      body: form,
    });
    const body = (await response.json()) as {
      access_token?: string;
      expires_in?: number;
      refresh_token?: string;
      error?: string;
      error_description?: string;
    };
    if (!response.ok || !body.access_token)
      throw new Error(
        `token endpoint: ${body.error ?? response.status} ${body.error_description ?? ""}`.trim(),
      );
    if (credentials.grant === "refresh_token" && body.refresh_token) {
      credentials.refreshToken = body.refresh_token;
      credentials.onRotate?.(body.refresh_token);
    }
    return { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
  };
  return {
    /** A valid access token (one token request at a time, however many API calls wait for it). */
    get: async () => {
      if (current && current.expiresAt - 30_000 > Date.now()) return current.value;
      pending ??= request().finally(() => (pending = undefined));
      current = await pending;
      return current.value;
    },
    /** Forgets the token (after a 401), so the next call fetches a new one. */
    reset: () => void (current = undefined),
  };
};

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), capped at 60, 1 when absent. */
export const retryAfterMs = (value: string | null) => {
  if (!value) return 1000;
  const seconds = /^\d+$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Math.min(60, Math.max(0, Number.isFinite(seconds) ? seconds : 1)) * 1000;
};

/** fetch that sends a request again after Retry-After when the answer is 429 or 503. */
export const retryingFetch = (base: typeof fetch, maxRetries: number) => async (input: Request) => {
  for (let attempt = 0; ; attempt++) {
    const response = await base(input.clone());
    if ((response.status !== 429 && response.status !== 503) || attempt >= maxRetries)
      return response;
    await response.body?.cancel();
    await new Promise((resolve) =>
      setTimeout(resolve, retryAfterMs(response.headers.get("retry-after"))),
    );
  }
};

export const createShoppingClient = (options: ShoppingClientOptions) => {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const tokens = tokenSource({
    origin: options.origin,
    credentials: options.credentials,
    fetch: baseFetch,
  });
  const newKey = options.newIdempotencyKey ?? (() => crypto.randomUUID());
  const client = createClient<paths>({
    baseUrl: `${options.origin}/api/v1`,
    fetch: retryingFetch(baseFetch, options.maxRetries ?? 3),
  });
  const middleware: Middleware = {
    onRequest: async ({ request }) => {
      request.headers.set("authorization", `Bearer ${await tokens.get()}`);
      if (request.method === "POST" && !request.headers.has("idempotency-key"))
        request.headers.set("idempotency-key", newKey());
      return request;
    },
    onResponse: ({ response }) => {
      if (response.status === 401) tokens.reset();
      return response;
    },
  };
  client.use(middleware);
  return client;
};

export type ShoppingClient = ReturnType<typeof createShoppingClient>;
