/** The scopes of the reference and who may hold them. */
export const allScopes = ["catalog:read", "checkout:write", "profile:read", "orders:read", "address:read", "purchase:write", "alerts:write"] as const;
export type Scope = (typeof allScopes)[number];

/** Scopes a client-credentials token may carry: never the person's data or money. */
export const clientCredentialsScopes: readonly Scope[] = ["catalog:read", "checkout:write"];

export const isScope = (value: string): value is Scope => (allScopes as readonly string[]).includes(value);

/** Splits an OAuth scope string; duplicates collapse. */
export const parseScopeString = (value: string | null | undefined): string[] => [...new Set((value ?? "").split(" ").filter(Boolean))];
