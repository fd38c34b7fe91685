import { describe, expect, it } from "vitest";
import { type CachedPage, cachePage, cachedPage } from "./search-page-cache";

const pageOf = (total: number): CachedPage => ({
  hits: {
    ids: [total],
    total,
    facets: { brand: [], size: [], color: [], category: [], store: [] },
  },
  sources: [],
});

describe("the one-second page cache", () => {
  it("keeps a page only when its query is asked for the second time within the second", () => {
    const at = 1_000_000;
    cachePage("once", 7, pageOf(1), at);
    expect(cachedPage("once", 7, at + 10)).toBeUndefined();
    cachePage("once", 7, pageOf(2), at + 500);
    expect(cachedPage("once", 7, at + 510)).toEqual(pageOf(2));
    // The kept page lives a second from when it was kept, and only at its index version.
    expect(cachedPage("once", 8, at + 520)).toBeUndefined();
  });

  it("counts a second ask after the first one's second as a first ask again", () => {
    const at = 2_000_000;
    cachePage("late", 1, pageOf(1), at);
    cachePage("late", 1, pageOf(2), at + 1_000);
    expect(cachedPage("late", 1, at + 1_001)).toBeUndefined();
    cachePage("late", 1, pageOf(3), at + 1_500);
    expect(cachedPage("late", 1, at + 1_501)).toEqual(pageOf(3));
    expect(cachedPage("late", 1, at + 2_500)).toBeUndefined();
  });

  it("forgets the oldest first asks beyond its bound, so one-off queries cannot grow it", () => {
    const at = 3_000_000;
    cachePage("first of many", 1, pageOf(1), at);
    for (let index = 0; index < 2_000; index++) cachePage(`one-off ${index}`, 1, pageOf(1), at);
    cachePage("first of many", 1, pageOf(2), at + 1);
    expect(cachedPage("first of many", 1, at + 2)).toBeUndefined();
    // The most recent first asks are still remembered.
    cachePage("one-off 1999", 1, pageOf(3), at + 3);
    expect(cachedPage("one-off 1999", 1, at + 4)).toEqual(pageOf(3));
  });
});
