/**
 * The email turns this process took, and when: a hint that spares a catalogue event the email turn's
 * claim for watches that cannot have a turn (ADR 0127). A notify watch emails at most once an hour,
 * and its last_emailed_at only moves forward (a claim needs it an hour old, and sets it to the
 * claimer's now), so a watch whose turn this process took at T has none before T + 1 h: for that
 * hour its new matches wait for the digest whatever the claim would say. In a sale nearly every
 * event matches hundreds of watches that emailed minutes before; the claim probed each of them (a
 * tenth of PostgreSQL's time in the sale benchmark). The database stays the judge: a watch not
 * remembered here (another instance took its turn, or this process restarted) is claimed as before.
 * Turns are remembered only once the transaction that took them committed.
 */
import { emailWindowStart } from "./policy";

const takenAt = new Map<string, number>();
/**
 * Past this many entries, the ones whose hour is over are dropped; the next pass waits for twice
 * what is left, so a busy hour's watches are not walked at every turn.
 */
let pruneAbove = 100_000;

/** Those of `ids` whose turn this process did not take within the hour before `now` (theirs may be due). */
export const withPossibleTurn = (ids: readonly string[], now: Date) => {
  // Once per call, not per watch: an event asks about hundreds.
  const windowStart = emailWindowStart(now).getTime();
  return ids.filter((id) => {
    const at = takenAt.get(id);
    return at === undefined || at <= windowStart;
  });
};

/** How many turns are remembered (the bound's test). */
export const rememberedTurns = () => takenAt.size;

/** Remembers turns taken at `now` by a committed transaction. */
export const rememberTurns = (ids: readonly string[], now: Date) => {
  for (const id of ids) takenAt.set(id, now.getTime());
  if (takenAt.size <= pruneAbove) return;
  const windowStart = emailWindowStart(now).getTime();
  for (const [id, at] of takenAt) if (at <= windowStart) takenAt.delete(id);
  pruneAbove = Math.max(100_000, takenAt.size * 2);
};
