/** Expiring one watch: the sweep's, the expiry job's and the evaluator's one move at a watch's due time. */
import { poolSql } from "../platform/sql";
import { expiryOutcome } from "./policy";
import { readOverTotal } from "./store/moves";
import { endWatch } from "./watch-writer";
import { expireGroupOfWatch } from "./groups/alternatives";

/**
 * Expires one active watch at or after its expiry (outcome over_your_total when last seen over the
 * total); an any-of group's alternative expires its whole group (they share one expiry).
 */
export const expireWatch = async (id: number, now: Date) => {
  const group = await expireGroupOfWatch(id, now);
  if (group !== undefined) return group;
  const overTotal = await readOverTotal(poolSql, id);
  if (overTotal === undefined) return false;
  return endWatch({ id, event: "expire", now, outcome: expiryOutcome(overTotal) });
};
