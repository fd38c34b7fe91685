/**
 * What is known about the request being served, for its log line, its metrics and its trace:
 * the front door (server/edges/http/front-door.ts) opens a scope per request, and the layers that
 * learn more (the partner wrapper learns the operation, the client and the person; the MCP edge its
 * tool) note it here instead of passing it back up. AsyncLocalStorage carries the scope through
 * every await of the request, in the lean API layer and in Next alike.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type RequestScope = {
  requestId: string;
  /** The operation served: an /api/v1 operation id, or a coarse name for everything else (page, mcp, oauth_token...). */
  operationId?: string;
  clientId?: string;
  /** Set only when the token is linked to a person. */
  personId?: string;
  /** An unexpected error met while serving (server/platform/http/respond.ts): logged once, with its stack, on the request's line. */
  error?: unknown;
};

/** One storage per process: the launcher (tsx) and the Next.js bundle load this module separately, and a page's code must find the front door's scope. */
const shared = globalThis as unknown as { shoppingRequestScope?: AsyncLocalStorage<RequestScope> };
const storage = (shared.shoppingRequestScope ??= new AsyncLocalStorage<RequestScope>());

/** Runs `serve` inside a new scope for the request `requestId`; returns the scope, to read once the response ends. */
export const openRequestScope = (requestId: string, serve: () => void): RequestScope => {
  const scope: RequestScope = { requestId };
  storage.run(scope, serve);
  return scope;
};

/** The scope of the request being served, or undefined outside one (jobs, tests calling handlers directly). */
export const currentRequestScope = (): RequestScope | undefined => storage.getStore();

/** Adds what this layer learned about the request to its scope; a no-op outside one. */
export const noteRequest = (facts: Omit<Partial<RequestScope>, "requestId">) => {
  const scope = storage.getStore();
  if (scope) Object.assign(scope, facts);
};
