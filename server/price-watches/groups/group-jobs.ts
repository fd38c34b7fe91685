/**
 * The timed and recovery work of any-of groups, run with the watches' (watch-jobs.ts). A group's
 * alternatives expire through expireWatch, which expires the whole group; what is left here is a
 * group that no alternative brings along: one due with no live alternative, and one a crash left
 * out of line with its alternatives (settleGroup).
 */
import { poolSql } from "../../platform/sql";
import { settleGroup } from "./alternatives";
import { endGroup } from "./group-writer";
import { findDueGroupIds, findUnsettledGroupIds } from "./store";

/** Expires active groups whose expires_at has passed (their alternatives with them); how many ended. */
export const expireDueGroups = async (options: { now: Date; batch?: number }) => {
  let ended = 0;
  const due = await findDueGroupIds(poolSql, { now: options.now, batch: options.batch ?? 200 });
  for (const id of due) if (await endGroup(id, { event: "expire", now: options.now })) ended++;
  return ended;
};

/** Settles groups left executing after their claimed alternative moved on, or active with none live, since `before`. */
export const settleUnsettledGroups = async (options: { now: Date; before: Date }) => {
  for (const id of await findUnsettledGroupIds(poolSql, options.before))
    await settleGroup(id, options.now);
};
