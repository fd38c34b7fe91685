import { describe, expect, it } from "vitest";
import { prng } from "../../../../prisma/seed/prng";
import { compareCodePoints } from "./code-points";
import { Dictionary } from "./dictionary";
import { topFacetValues } from "./facet-top";
import { ValueSets } from "./value-sets";

/** The plain definition: every non-zero value, count descending then code-point order, cut at limit. */
const bySorting = (counts: Uint32Array, values: string[], limit: number) =>
  values
    .map((value, id) => ({ value, count: counts[id] }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count || compareCodePoints(a.value, b.value))
    .slice(0, limit);

describe("topFacetValues", () => {
  it("equals sorting every value, with more values than the limit and many ties", () => {
    const random = prng(28);
    for (const [valueCount, limit, maxCount] of [
      [5000, 100, 40],
      [5000, 100, 1_000_000],
      [150, 100, 3],
      [60, 100, 10],
      [1, 1, 2],
      [300, 7, 2],
    ]) {
      const dictionary = new Dictionary();
      for (let i = 0; i < valueCount; i++)
        dictionary.idOf(
          `v${Math.floor(random() * valueCount * 3)}-${i}${i % 7 ? "" : "\u{1F600}"}`,
        );
      const counts = Uint32Array.from(dictionary.values, () =>
        random() < 0.2 ? 0 : Math.floor(random() * maxCount),
      );
      expect(topFacetValues(counts, dictionary.values, dictionary.ranks(), limit)).toEqual(
        bySorting(counts, dictionary.values, limit),
      );
    }
  });

  it("returns nothing when every count is zero", () => {
    const dictionary = new Dictionary();
    for (const value of ["a", "b", "c"]) dictionary.idOf(value);
    expect(topFacetValues(new Uint32Array(3), dictionary.values, dictionary.ranks(), 100)).toEqual(
      [],
    );
  });
});

describe("ValueSets.matching", () => {
  it("marks the lists holding any wanted value, lists added later included", () => {
    const sets = new ValueSets();
    const small = sets.idOf(["S"]);
    const medium = sets.idOf(["M", null]);
    expect([...sets.matching(["M"])]).toEqual([0, 1]);
    expect([...sets.matching(["L"])]).toEqual([0, 0]);
    const both = sets.idOf(["S", "M"]);
    const first = sets.idOf(["XL"]);
    expect([small, medium, both, first]).toEqual([0, 1, 2, 3]);
    expect([...sets.matching(["M"])]).toEqual([0, 1, 1, 0]);
    expect([...sets.matching(["XL", "S"])]).toEqual([1, 0, 1, 1]);
    expect(sets.idOf(["M", "M"])).toBe(4);
    expect([...sets.matching(["M", "nothing"])]).toEqual([0, 1, 1, 0, 1]);
  });
});
