/**
 * Keeps the linking tables from growing forever: deletes grants that ended (revoked or expired)
 * more than 30 days ago, with their codes and tokens (cascade), codes used or expired over a day
 * ago, and refresh tokens expired over a day ago. Used refresh tokens stay until they expire: reuse
 * detection needs them for the token's whole life. Runs from the due-work sweep at most every 10 minutes per
 * process; each delete is idempotent, so several instances may run it.
 */
import type { Db } from "../../db";

const day = 86_400_000;
const intervalMs = 10 * 60_000;
let lastRun = 0;

export const purgeEndedCredentials = async (options: { db: Db; now: Date; force?: boolean }) => {
  const { db, now } = options;
  if (!options.force && now.getTime() - lastRun < intervalMs) return { skipped: true };
  lastRun = now.getTime();
  const monthAgo = new Date(now.getTime() - 30 * day);
  const dayAgo = new Date(now.getTime() - day);
  const grants = await db.oAuthGrant.deleteMany({ where: { OR: [{ revokedAt: { lt: monthAgo } }, { expiresAt: { lt: monthAgo } }] } });
  const codes = await db.authorizationCode.deleteMany({ where: { OR: [{ expiresAt: { lt: dayAgo } }, { consumedAt: { lt: dayAgo } }] } });
  const refreshTokens = await db.refreshToken.deleteMany({ where: { expiresAt: { lt: dayAgo } } });
  return { grants: grants.count, codes: codes.count, refreshTokens: refreshTokens.count };
};
