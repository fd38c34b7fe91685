/**
 * Dictionary encoding of facet values: each distinct string gets a small integer id, so the index
 * stores ints and counts into typed arrays. Ids are stable (the dictionary only grows); `ranks`
 * gives each id its position in code-point order, the tie order of facet values.
 */
import { compareCodePoints } from "./code-points";

export class Dictionary {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  private ranksCache: Int32Array | undefined;

  get size() {
    return this.values.length;
  }

  /** The id of `value`, adding it when new. */
  idOf(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
      this.ranksCache = undefined;
    }
    return id;
  }

  /** The id of `value`, or -1 when no item ever had it. */
  find(value: string): number {
    return this.ids.get(value) ?? -1;
  }

  /** Position of every id in code-point order of the values (recomputed only after an addition). */
  ranks(): Int32Array {
    if (this.ranksCache) return this.ranksCache;
    const order = this.values
      .map((_, id) => id)
      .sort((a, b) => compareCodePoints(this.values[a], this.values[b]));
    const ranks = new Int32Array(order.length);
    order.forEach((id, rank) => (ranks[id] = rank));
    return (this.ranksCache = ranks);
  }
}
