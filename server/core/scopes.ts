/**
 * The scopes of the reference. Here, below everything, because a procedure's meta names the scope
 * it needs (server/platform/trpc/init.ts); who may hold each one is the OAuth server's rule
 * (server/auth/scopes.ts).
 */
export const allScopes = [
  "catalog:read",
  "checkout:write",
  "profile:read",
  "orders:read",
  "address:read",
  "purchase:write",
  "alerts:write",
] as const;
export type Scope = (typeof allScopes)[number];
