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
   * The lists holding each value id, ascending: a filter ("any of these sizes") marks the lists of
   * its few values instead of testing every list (~13,500 size lists at a million items).
   */
  private readonly listsOfValue: number[][] = [];

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
      for (const value of new Set(members)) (this.listsOfValue[value] ??= []).push(id);
    }
    return id;
  }

  /** Per list id: 1 when the list holds any of `wanted` (the && of text arrays). */
  matching(wanted: readonly string[]): Uint8Array {
    const table = new Uint8Array(this.members.length);
    for (const value of wanted) {
      const id = this.values.find(value);
      const lists = id >= 0 ? this.listsOfValue[id] : undefined;
      if (lists) for (let i = 0; i < lists.length; i++) table[lists[i]] = 1;
    }
    return table;
  }

  /** Per-value counts from per-list counts. */
  expand(listCounts: Uint32Array): Uint32Array {
    const counts = new Uint32Array(this.values.size);
    for (let id = 0; id < listCounts.length; id++) {
      const count = listCounts[id];
      if (count === 0) continue;
      const members = this.members[id];
      for (let i = 0; i < members.length; i++) counts[members[i]] += count;
    }
    return counts;
  }
}
