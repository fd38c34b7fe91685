/**
 * French is complete: every English message has a French one with the same placeholders, and no
 * French message is left over. A missing key would show the key itself to a Quebec shopper.
 */
import { describe, expect, it } from "vitest";
import { messagesOf } from ".";
import { formatTime } from "../locale";

type Tree = { [key: string]: string | Tree };

const leaves = (tree: Tree, prefix = ""): Map<string, string> => {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") found.set(path, value);
    else for (const [leaf, text] of leaves(value, path)) found.set(leaf, text);
  }
  return found;
};

// The argument names of an ICU message: {name}, {count, plural, ...}, {when, date, ...}.
const placeholders = (message: string) =>
  [...message.matchAll(/\{\s*([a-zA-Z_][\w]*)\s*[,}]/g)].map((match) => match[1]).sort();

describe("messages", () => {
  const english = leaves(messagesOf("en-CA") as unknown as Tree);
  const french = leaves(messagesOf("fr-CA") as unknown as Tree);

  it("French has exactly the English keys", () => {
    expect([...french.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it("each French message has the English one's placeholders", () => {
    const different = [...english].filter(
      ([key, text]) =>
        french.has(key) &&
        JSON.stringify([...new Set(placeholders(text))]) !==
          JSON.stringify([...new Set(placeholders(french.get(key)!))]),
    );
    expect(different.map(([key]) => key)).toEqual([]);
  });

  it("no English message puts a full stop after a time: an English time already ends in a.m. or p.m.", () => {
    expect(formatTime(new Date("2026-12-07T23:37:00Z"), "en-CA", "America/Toronto")).toMatch(
      /[ap]\.m\.$/,
    );
    const timeArguments = /\{(time|expires|until|at|charges_at|cancel_until)\}\./;
    expect([...english].filter(([, text]) => timeArguments.test(text))).toEqual([]);
  });
});
