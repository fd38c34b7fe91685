/**
 * Dictionary encoding of value lists (an item's sizes, its colours): each distinct list of value ids
 * gets one id. The scan then counts one integer per item and expands the few distinct lists into
 * per-value counts afterwards, and a filter ("any of these sizes") is a lookup per list id.
 */
import { Dictionary } from "./dictionary";

export class ValueSets {
  /** The values (e.g. size keys) the lists are made of. */
  readonly values = new Dictionary();
  /** Value ids of each list, as the item listed them (a repeated value counts twice, as unnest does). */
  readonly members: Int32Array[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * Recent matching() answers by the wanted values and the number of lists then: lists and values
   * are only ever added, so an answer stays right until a list is added. At a million items there
   * are ~13,500 size lists, and a size filter would otherwise test every one on each search.
   */
  private readonly matchingCache = new Map<string, Uint8Array>();

  get size() {
    return this.members.length;
  }

  /** The id of the list of `values`, skipping NULLs (unnest gives NULL, which facets drop and && never matches). */
  idOf(values: readonly (string | null)[]): number {
    const members = Int32Array.from(
      values.filter((value): value is string => value !== null),
      (value) => this.values.idOf(value),
    );
    const key = members.join(",");
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.members.length;
      this.members.push(members);
      this.ids.set(key, id);
    }
    return id;
  }

  /** Per list id: 1 when the list holds any of `wanted` (the && of text arrays). */
  matching(wanted: readonly string[]): Uint8Array {
    const key = `${this.members.length} ${JSON.stringify(wanted)}`;
    const cached = this.matchingCache.get(key);
    if (cached) return cached;
    const answer = this.computeMatching(wanted);
    if (this.matchingCache.size >= 64) this.matchingCache.clear();
    this.matchingCache.set(key, answer);
    return answer;
  }

  private computeMatching(wanted: readonly string[]): Uint8Array {
    const valueIds = new Set(
      wanted.map((value) => this.values.find(value)).filter((id) => id >= 0),
    );
    return Uint8Array.from(this.members, (members) =>
      members.some((id) => valueIds.has(id)) ? 1 : 0,
    );
  }

  /** Per-value counts from per-list counts. */
  expand(listCounts: Uint32Array): Uint32Array {
    const counts = new Uint32Array(this.values.size);
    for (let id = 0; id < listCounts.length; id++) {
      const count = listCounts[id];
      if (count !== 0) for (const value of this.members[id]) counts[value] += count;
    }
    return counts;
  }
}
