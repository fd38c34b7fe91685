/**
 * The injectable clock. Domain code takes `now` as an argument; everything else receives a Clock
 * through the tRPC context, so tests and sandbox helpers can move time without touching Date.now().
 */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stays where it is set; for tests. */
export const fixedClock = (
  start: Date,
): Clock & { set: (date: Date) => void; advance: (ms: number) => void } => {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (date) => {
      current = new Date(date);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
};
