/** The scopes of the reference (server/core/scopes.ts) and who may hold them. */
import { allScopes, type Scope } from "../core/scopes";

export { allScopes };
export type { Scope };

/** Scopes a client-credentials token may carry: never the person's data or money. */
export const clientCredentialsScopes: readonly Scope[] = ["catalog:read", "checkout:write"];

export const isScope = (value: string): value is Scope =>
  (allScopes as readonly string[]).includes(value);

/** Splits an OAuth scope string; duplicates collapse. */
export const parseScopeString = (value: string | null | undefined): string[] => [
  ...new Set((value ?? "").split(" ").filter(Boolean)),
];

/** Scopes only a person can grant, on the consent page (never on a client-credentials token). */
export const personScopes: readonly Scope[] = [
  "profile:read",
  "orders:read",
  "address:read",
  "purchase:write",
  "alerts:write",
];

/** Scopes only an assistant registered at /oauth/register/agent may receive. */
export const agentOnlyScopes: readonly Scope[] = ["purchase:write"];

/**
 * Scopes the person opts into with their own checkbox (unticked by default) rather than with the
 * Approve button alone: they let the app spend money or send email for them.
 */
export const optInScopes: readonly Scope[] = ["purchase:write", "alerts:write"];
