/**
 * Every procedure starts here, with its contract: `procedure({ caller, scope })` sets the tRPC meta
 * (`Meta`, server/platform/trpc/init.ts) and the one middleware that reads it and admits the caller
 * (admission.ts). The operation table reads the same meta for the OpenAPI document and the MCP
 * tools, so the scope is written nowhere else. The context then carries `personId` (person,
 * assistant and shopper procedures: the data owner, from the token or the session, never from
 * input) or `owner` (client procedures: the client and, for a linked token, its person).
 */
import type { Owner } from "./context";
import { admission } from "./admission";
import { baseProcedure, type Meta } from "./init";

/** What the middleware adds to the context for a procedure declaring `M`. */
type Admitted<M extends Meta> = M["caller"] extends "client"
  ? { owner: Owner }
  : M["caller"] extends "person" | "assistant" | "shopper"
    ? { personId: string }
    : object;

/** A procedure that `meta.caller` may call (with `meta.scope` on its token, where it names one). */
export const procedure = <const M extends Meta>(meta: M) =>
  baseProcedure
    .meta(meta)
    .use(({ ctx, meta: declared, next }) => next({ ctx: admission(declared, ctx) as Admitted<M> }));

/** Any token of a client whatever its scopes: what the client configures about itself (`ctx.owner`). */
export const clientProcedure = procedure({ caller: "client" });

/** The person signed in to the pages (`ctx.personId`, 401 otherwise). */
export const shopperProcedure = procedure({ caller: "shopper" });

/** Anyone: a link in an email, the hosted checkout page, sign-up. */
export const publicProcedure = procedure({ caller: "public" });
