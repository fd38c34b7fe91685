/**
 * The inner context every procedure receives. It takes no Request: REST, MCP, pages and jobs each
 * build one for their actor, so the same procedure serves all of them.
 */
import type { Clock } from "../clock";
import { systemClock } from "../clock";
import { type Db, db } from "../db";

export type Actor =
  | { kind: "anonymous" }
  | { kind: "system" }
  /** `publicAddress`: set only for the public MCP connector's callers (no account), whose checkouts are capped per address. */
  | {
      kind: "client";
      clientId: string;
      tokenId: string;
      scopes: readonly string[];
      personId?: string;
      publicAddress?: string;
    }
  /** A shopper signed in to the web pages (next-auth session). */
  | { kind: "person"; personId: string };

/** The owner of what a client configures about itself: the client and, for a linked token, its person. */
export type Owner = { clientId: string; personId: string | null };

/** What admitting the caller gives the procedure: whose data it is, or which client owns it. */
export type Admission = { personId?: string; owner?: Owner };

export type Context = {
  db: Db;
  clock: Clock;
  requestId: string;
  /** The caller's own X-Request-Id, logged beside ours with a fault (server/platform/http/request-id.ts). */
  clientRequestId?: string;
  actor: Actor;
  /** The client asked for a fresh answer (Cache-Control: no-cache): skip short-lived result caches. */
  wantsFresh?: boolean;
  /** The client's address (server/platform/http/client-ip.ts), set by callers that serve a browser (the pages' caller); per-address limits use it. */
  clientAddress?: string;
  /**
   * The REST edge's verdict on the caller, made from the meta of the one procedure it serves before
   * it parses the request (server/platform/trpc/admission.ts): that procedure takes it instead of
   * checking again. `meta` is that procedure's meta object, compared by identity.
   */
  admitted?: { meta: unknown; admission: Admission };
};

export const createInnerContext = (
  options: Partial<Context> & Pick<Context, "actor" | "requestId">,
): Context => {
  const database = options.db ?? db();
  return {
    db: database,
    clock: options.clock ?? systemClock,
    ...options,
  } as Context;
};
