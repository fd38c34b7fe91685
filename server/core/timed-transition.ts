/**
 * One move of a state table whose rows expire (price watches, their any-of groups, search watches):
 * from which states, to which, the outcome recorded with it, and whether it applies only before or
 * only after expires_at. Each capability keeps its own table of events; this is the shape they share.
 */
export type TimedTransition<State extends string> = {
  from: readonly State[];
  to: State;
  /** The outcome recorded with the move; null: the caller gives it, or none. */
  outcome: string | null;
  /** Only while now is before expires_at (a purchase is only ever claimed before expiry). */
  needsUnexpired: boolean;
  /** Only once expires_at is at or before now. */
  needsExpired: boolean;
};

/** A transition with no outcome and no expiry condition unless `options` gives them. */
export const timedRule = <State extends string>(
  from: readonly State[],
  to: State,
  options: Partial<Omit<TimedTransition<State>, "from" | "to">> = {},
): TimedTransition<State> => ({
  from,
  to,
  outcome: null,
  needsUnexpired: false,
  needsExpired: false,
  ...options,
});
