/**
 * The hint before the email turn's claim, pure: a turn this process took rules out another for the
 * hour after it (the claim's own condition), and old turns are dropped when many are kept.
 */
import { describe, expect, it } from "vitest";
import { rememberTurns, withPossibleTurn } from "./turns-taken";

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

  it("turns whose hour is over are dropped once many are kept; the hour's are kept", () => {
    const old = Array.from({ length: 100_001 }, (_, index) => `srw_old_${index}`);
    rememberTurns(old, at(0));
    rememberTurns(["srw_fresh"], at(2 * hour));
    expect(mayHaveTurn("srw_fresh", at(2 * hour + 1))).toBe(false);
    expect(withPossibleTurn(old, at(2 * hour))).toEqual(old);
    expect(withPossibleTurn(["srw_fresh", ...old.slice(0, 2)], at(2 * hour))).toEqual(
      old.slice(0, 2),
    );
  });
});
