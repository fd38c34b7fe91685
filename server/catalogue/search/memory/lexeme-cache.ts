/**
 * q to lexemes, exactly as pg-search does it (PostgreSQL's to_tsvector('english', q)), remembered in
 * a small LRU: one tiny query per new q, none for a repeated one. A Map iterates in insertion order,
 * so re-inserting on a hit and evicting the first key is an LRU.
 */
import { textLexemes } from "../pg-search";

export const createLexemeCache = (capacity = 10_000) => {
  const cache = new Map<string, string[]>();
  return async (text: string | undefined): Promise<string[]> => {
    if (!text || !text.trim()) return [];
    const hit = cache.get(text);
    if (hit) {
      cache.delete(text);
      cache.set(text, hit);
      return hit;
    }
    const lexemes = await textLexemes(text);
    cache.set(text, lexemes);
    if (cache.size > capacity) cache.delete(cache.keys().next().value!);
    return lexemes;
  };
};
