/**
 * The hint before the email turn's claim, pure: a turn this process took rules out another for the
 * hour after it (the claim's own condition), and old turns are dropped when many are kept.
 */
import { describe, expect, it } from "vitest";
import { rememberedTurns, rememberTurns, withPossibleTurn } from "./turns-taken";

const mayHaveTurn = (id: string, now: Date) => withPossibleTurn([id], now).length === 1;

const hour = 3_600_000;
const at = (ms: number) => new Date(Date.UTC(2026, 11, 4, 12) + ms);

describe("the email turns this process took (a hint before the claim)", () => {
  it("a watch never seen here may have its turn", () => {
    expect(mayHaveTurn("srw_never", at(0))).toBe(true);
  });

  it("a turn taken here rules out another for the hour after it, as the claim's condition does", () => {
    rememberTurns(["srw_a", "srw_b"], at(0));
    expect(mayHaveTurn("srw_a", at(1))).toBe(false);
    expect(mayHaveTurn("srw_b", at(hour - 1))).toBe(false);
    // The claim takes a watch last emailed at or before now - 1 h: so does the hint.
    expect(mayHaveTurn("srw_a", at(hour))).toBe(true);
    expect(mayHaveTurn("srw_b", at(2 * hour))).toBe(true);
  });

  it("a later turn replaces the earlier one", () => {
    rememberTurns(["srw_c"], at(0));
    rememberTurns(["srw_c"], at(hour));
    expect(mayHaveTurn("srw_c", at(hour + 1))).toBe(false);
    expect(mayHaveTurn("srw_c", at(2 * hour))).toBe(true);
  });

  it("past 100,000 kept, the turns whose hour is over are dropped; a pass that dropped none waits for twice as many", () => {
    const many = (prefix: string, length: number) =>
      Array.from({ length }, (_, index) => `srw_${prefix}_${index}`);
    const old = many("old", 100_001);
    // All within the hour: the pass over them drops none, and the next waits for twice as many.
    rememberTurns(old, at(0));
    const kept = rememberedTurns();
    expect(kept).toBeGreaterThan(100_000);
    rememberTurns(["srw_fresh"], at(2 * hour));
    expect(rememberedTurns()).toBe(kept + 1);
    // Past twice as many: every turn over an hour old goes (the earlier tests' too), the hour's stay.
    const fresh = many("fresh", kept + 10);
    rememberTurns(fresh, at(2 * hour));
    expect(rememberedTurns()).toBe(fresh.length + 1);
    expect(mayHaveTurn("srw_fresh", at(2 * hour + 1))).toBe(false);
    expect(withPossibleTurn(old, at(2 * hour))).toEqual(old);
    expect(withPossibleTurn(["srw_fresh", ...old.slice(0, 2)], at(2 * hour))).toEqual(
      old.slice(0, 2),
    );
  });
});
