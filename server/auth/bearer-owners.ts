/**
 * Who holds a bearer token this process has already accepted: its client and, for a linked token,
 * its person. Neither ever changes for a token (they are its row's), so a partner request can start
 * counting its rate limit while the token is still being checked (server/edges/rest/with-partner.ts)
 * instead of after: one wait less a request. This is a hint, never an authentication: every request
 * still reads the token's row (revocation, expiry, audience and scopes take effect at once), and a
 * token that fails that check is forgotten here. Keyed by the token's SHA-256, never the token.
 */
const capacity = 10_000;
export type BearerOwner = { clientId: string; personId?: string };
const owners = new Map<string, BearerOwner>();

/** The owner of the token with this hash, if this process accepted it before. */
export const rememberedOwner = (tokenHash: string): BearerOwner | undefined =>
  owners.get(tokenHash);

/** Notes an accepted token's owner; the oldest entry goes once `capacity` are held. */
export const rememberOwner = (tokenHash: string, owner: BearerOwner) => {
  if (owners.has(tokenHash)) return;
  if (owners.size >= capacity) owners.delete(owners.keys().next().value!);
  owners.set(tokenHash, owner);
};

/** Forgets a token that failed its check (revoked, expired, unknown, another audience). */
export const forgetOwner = (tokenHash: string) => {
  owners.delete(tokenHash);
};
