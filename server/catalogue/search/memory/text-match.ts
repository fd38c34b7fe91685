/**
 * The items that have every lexeme of q, with their relevance score (sum over the lexemes of the best
 * weight class score). Starts from the rarest lexeme's list and narrows it by each of the others:
 * an O(1) lookup for dense lists, a merge (galloping when lengths differ) for sparse ones.
 */
import type { PostingList, Postings } from "./postings";
import { specialized } from "./specialized";

export type TextMatches = { slots: Int32Array; scores: Int32Array; count: number };

const none: TextMatches = { slots: new Int32Array(0), scores: new Int32Array(0), count: 0 };

/** Reused result buffers (matchText is synchronous and its caller finishes with them before the next call). */
const scratch = { slots: new Int32Array(0), scores: new Int32Array(0) };
const buffers = (length: number) => {
  if (scratch.slots.length < length) {
    scratch.slots = new Int32Array(Math.ceil(length * 1.25));
    scratch.scores = new Int32Array(scratch.slots.length);
  }
  return scratch;
};

/*
 * The two passes over a dense list, compiled for the result buffers (specialized.ts, ADR 0124).
 * They store every candidate and move past the kept ones by `(weight + 255) >> 8` (1 for a weight
 * of 1..255, 0 for none) instead of branching: whether a slot has a common word is a coin toss the
 * CPU cannot predict, and a missed branch a slot cost as much as the rest of the loop.
 */

/** The active slots having the word, in slot order, with their weights, up to `limit`. */
const denseFirstLoop = specialized(
  (isActive: Uint8Array, slots: Int32Array, scores: Int32Array) =>
    (dense: Uint8Array, slotCount: number, limit: number) => {
      let count = 0;
      for (let slot = 0; slot < slotCount && count < limit; slot++) {
        const weight = dense[slot] & -isActive[slot];
        slots[count] = slot;
        scores[count] = weight;
        count += (weight + 255) >> 8;
      }
      return count;
    },
);

/** The first `count` candidates narrowed in place to those having the word, their weight added. */
const denseNarrowLoop = specialized(
  (slots: Int32Array, scores: Int32Array) => (dense: Uint8Array, count: number) => {
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const weight = dense[slots[i]];
      slots[kept] = slots[i];
      scores[kept] = scores[i] + weight;
      kept += (weight + 255) >> 8;
    }
    return kept;
  },
);

/** First index in list.slots[from..length) holding a slot >= target (galloping search). */
const seek = (list: PostingList, from: number, target: number) => {
  let step = 1;
  let high = from;
  while (high < list.length && list.slots[high] < target) {
    from = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, list.length);
  while (from < high) {
    const middle = (from + high) >>> 1;
    if (list.slots[middle] < target) from = middle + 1;
    else high = middle;
  }
  return from;
};

/** Slots (ascending) of active items having every lexeme, with scores; valid until the next call. */
export const matchText = (
  postings: Postings,
  lexemes: string[],
  slotCount: number,
  isActive: Uint8Array,
): TextMatches => {
  const lists: PostingList[] = [];
  for (const lexeme of lexemes) {
    const list = postings.get(lexeme);
    if (!list) return none;
    lists.push(list);
  }
  lists.sort((a, b) => a.count - b.count);
  const first = lists[0];
  let count = 0;
  let slots: Int32Array;
  let scores: Int32Array;
  if (first.dense) {
    const dense = first.dense;
    const limit = Math.min(first.count, slotCount);
    // One spare entry: the loops below write every slot and advance only past the kept ones.
    ({ slots, scores } = buffers(limit + 1));
    count = denseFirstLoop(isActive, slots, scores)(dense, slotCount, limit);
  } else {
    ({ slots, scores } = buffers(first.length + 1));
    for (let i = 0; i < first.length; i++) {
      const slot = first.slots[i];
      slots[count] = slot;
      scores[count] = first.scores[i];
      count += isActive[slot];
    }
  }
  for (let l = 1; l < lists.length && count > 0; l++) {
    const list = lists[l];
    let kept = 0;
    if (list.dense) {
      kept = denseNarrowLoop(slots, scores)(list.dense, count);
    } else {
      let at = 0;
      for (let i = 0; i < count && at < list.length; i++) {
        at = seek(list, at, slots[i]);
        if (at < list.length && list.slots[at] === slots[i]) {
          slots[kept] = slots[i];
          scores[kept++] = scores[i] + list.scores[at];
        }
      }
    }
    count = kept;
  }
  return { slots, scores, count };
};
