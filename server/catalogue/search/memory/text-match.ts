/**
 * The items that have every lexeme of q, with their relevance score (sum over the lexemes of the best
 * weight class score). Starts from the rarest lexeme's list and narrows it by each of the others:
 * an O(1) lookup for dense lists, a merge (galloping when lengths differ) for sparse ones.
 */
import type { PostingList, Postings } from "./postings";

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
    ({ slots, scores } = buffers(limit));
    for (let slot = 0; slot < slotCount && count < limit; slot++) {
      if (dense[slot] !== 0 && isActive[slot] !== 0) {
        slots[count] = slot;
        scores[count++] = dense[slot];
      }
    }
  } else {
    ({ slots, scores } = buffers(first.length));
    for (let i = 0; i < first.length; i++) {
      const slot = first.slots[i];
      if (isActive[slot] !== 0) {
        slots[count] = slot;
        scores[count++] = first.scores[i];
      }
    }
  }
  for (let l = 1; l < lists.length && count > 0; l++) {
    const list = lists[l];
    let kept = 0;
    if (list.dense) {
      const dense = list.dense;
      for (let i = 0; i < count; i++) {
        const score = dense[slots[i]];
        if (score !== 0) {
          slots[kept] = slots[i];
          scores[kept++] = scores[i] + score;
        }
      }
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
