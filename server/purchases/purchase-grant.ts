/**
 * Whether the person still lets an assistant buy for them: a live grant (not revoked, not expired)
 * of the person to that client with purchase:write, the client not revoked. The one SQL of that rule,
 * read with the watch by the evaluator (watch-standing.ts) and again under the person's lock by the
 * watch's purchase (evaluate-watch.ts stillClaimed, review M3).
 */
import { Prisma } from "../generated/prisma/client";

/** A boolean SQL expression; `clientId` and `personId` are values or columns. */
export const hasPurchaseGrantSql = (
  clientId: string | Prisma.Sql,
  personId: string | Prisma.Sql,
  now: Date,
) => Prisma.sql`
  EXISTS (SELECT 1 FROM oauth_grants g JOIN api_clients c ON c.id = g.client_id
    WHERE g.client_id = ${clientId} AND g.person_id = ${personId} AND g.revoked_at IS NULL AND g.expires_at > ${now}
      AND 'purchase:write' = ANY(g.scopes) AND c.revoked_at IS NULL)`;
