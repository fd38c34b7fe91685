/**
 * Posting lists: for each lexeme, the slots that have it with the score of the best weight class
 * (8/4/2/1). A list is sparse (sorted slots plus scores, 5 bytes a posting) or, when a fifth or more
 * of the slots have the lexeme, dense (one score byte per slot, 0 = absent), which is smaller then and
 * answers "does slot s have it" in O(1). Slots only ever get appended, so sparse lists stay sorted.
 *
 * A bulk build stages every posting in flat arrays first and then allocates each list at its exact
 * size: growing a million small arrays would leave the process holding freed memory (malloc keeps it).
 */
import { ensureLength } from "./growable";

export type PostingList = {
  /** Sparse form: the first `length` entries of slots/scores, ascending by slot. */
  slots: Int32Array;
  scores: Uint8Array;
  length: number;
  /** Dense form (slots/scores then unused): score per slot. */
  dense: Uint8Array | null;
  /** Postings ever added (dead slots included): orders lexemes by selectivity. */
  count: number;
  /**
   * For uniformWeight: slots [0, uniformUpTo) were checked, and all have weight `uniform` (0 before
   * the first check, -1 once any slot differs: a slot's weight never changes, so that is final).
   */
  uniformUpTo: number;
  uniform: number;
};

type Staging = {
  lists: PostingList[];
  listIds: Map<PostingList, number>;
  ids: Int32Array;
  slots: Int32Array;
  scores: Uint8Array;
  length: number;
};

const emptyList = (): PostingList => ({
  slots: new Int32Array(0),
  scores: new Uint8Array(0),
  length: 0,
  dense: null,
  count: 0,
  uniformUpTo: 0,
  uniform: 0,
});

export class Postings {
  private readonly lists = new Map<string, PostingList>();
  private slotCapacity = 0;
  private staging: Staging | null = null;

  get size() {
    return this.lists.size;
  }

  get(lexeme: string): PostingList | undefined {
    return this.lists.get(lexeme);
  }

  /** Stages postings until compact(); `expected` sizes the staging arrays (they grow if it is low). */
  beginBulk(expected: number) {
    const length = Math.max(1024, expected);
    this.staging = {
      lists: [],
      listIds: new Map(),
      ids: new Int32Array(length),
      slots: new Int32Array(length),
      scores: new Uint8Array(length),
      length: 0,
    };
  }

  add(lexeme: string, slot: number, score: number) {
    let list = this.lists.get(lexeme);
    if (!list) {
      list = emptyList();
      this.lists.set(lexeme, list);
    }
    list.count++;
    const staging = this.staging;
    if (staging) {
      let id = staging.listIds.get(list);
      if (id === undefined) {
        id = staging.lists.push(list) - 1;
        staging.listIds.set(list, id);
      }
      if (staging.length === staging.ids.length) {
        staging.ids = ensureLength(staging.ids, staging.length + 1);
        staging.slots = ensureLength(staging.slots, staging.length + 1);
        staging.scores = ensureLength(staging.scores, staging.length + 1);
      }
      staging.ids[staging.length] = id;
      staging.slots[staging.length] = slot;
      staging.scores[staging.length++] = score;
      return;
    }
    if (list.dense) {
      list.dense[slot] = score;
      return;
    }
    if (list.length === list.slots.length) {
      list.slots = ensureLength(list.slots, list.length + 1);
      list.scores = ensureLength(list.scores, list.length + 1);
    }
    list.slots[list.length] = slot;
    list.scores[list.length++] = score;
  }

  /** Dense score arrays cover every slot: grow them with the slot arrays. */
  ensureSlots(capacity: number) {
    if (capacity <= this.slotCapacity) return;
    this.slotCapacity = capacity;
    for (const list of this.lists.values())
      if (list.dense) list.dense = ensureLength(list.dense, capacity);
  }

  /** Ends a bulk build: every staged list gets its exact size; frequent ones become dense. */
  compact(slotCount: number, capacity: number) {
    this.slotCapacity = Math.max(this.slotCapacity, capacity);
    const staging = this.staging;
    this.staging = null;
    if (!staging) return;
    for (const list of staging.lists) {
      const staged = list.count - list.length;
      if (!list.dense && (list.length + staged) * 5 >= slotCount && slotCount > 1024) {
        const dense = new Uint8Array(this.slotCapacity);
        for (let i = 0; i < list.length; i++) dense[list.slots[i]] = list.scores[i];
        Object.assign(list, {
          dense,
          slots: new Int32Array(0),
          scores: new Uint8Array(0),
          length: 0,
        });
      } else if (!list.dense) {
        const slots = new Int32Array(list.length + staged);
        const scores = new Uint8Array(list.length + staged);
        slots.set(list.slots.subarray(0, list.length));
        scores.set(list.scores.subarray(0, list.length));
        Object.assign(list, { slots, scores });
      }
    }
    const { ids, slots, scores } = staging;
    for (let i = 0; i < staging.length; i++) {
      const list = staging.lists[ids[i]];
      if (list.dense) list.dense[slots[i]] = scores[i];
      else {
        list.slots[list.length] = slots[i];
        list.scores[list.length++] = scores[i];
      }
    }
  }

  /**
   * The weight every slot below `slotCount` has the lexeme with, or 0 when some slot lacks it or has
   * another weight. Such a word selects every item and adds the same to every score, so a search
   * can leave it out (evaluate.ts). A slot's postings are written once, when the slot is made, so the
   * answer is kept and only slots made since are checked.
   */
  uniformWeight(list: PostingList, slotCount: number): number {
    const dense = list.dense;
    if (!dense || slotCount === 0 || list.uniform < 0) return 0;
    let weight = list.uniform || dense[0];
    if (weight === 0) {
      list.uniform = -1;
      return 0;
    }
    for (let slot = list.uniformUpTo; slot < slotCount; slot++)
      if (dense[slot] !== weight) {
        weight = -1;
        break;
      }
    list.uniform = weight;
    list.uniformUpTo = slotCount;
    return Math.max(0, weight);
  }

  bytes() {
    let bytes = 0;
    for (const list of this.lists.values())
      bytes += list.dense ? list.dense.byteLength : list.slots.byteLength + list.scores.byteLength;
    return bytes;
  }
}
