import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./code-points";
import { parseTsvectorText } from "./tsvector-text";

const parse = (text: string) => {
  const lexemes: [string, number][] = [];
  parseTsvectorText(text, (lexeme, score) => lexemes.push([lexeme, score]));
  return lexemes;
};

describe("tsvector text", () => {
  it("reads the best weight class of each lexeme (A 8, B 4, C 2, D 1)", () => {
    expect(parse("'black':3A,9 'coat':8B 'colour':11 'navy':5C,6B 'size'")).toEqual([
      ["black", 8],
      ["coat", 4],
      ["colour", 1],
      ["navy", 4],
      ["size", 1],
    ]);
  });

  it("undoes the doubling of quotes and backslashes (as PostgreSQL prints them)", () => {
    expect(parse("'o''brien':1A 'back\\\\slash':2 '''':3 'a b'")).toEqual([
      ["o'brien", 8],
      ["back\\slash", 1],
      ["'", 1],
      ["a b", 1],
    ]);
  });

  it("reads an empty vector as no lexemes", () => {
    expect(parse("")).toEqual([]);
  });
});

describe('code-point order (COLLATE "C")', () => {
  it("puts characters above U+FFFF after U+E000, unlike UTF-16 order", () => {
    const values = ["Zed \u{1F600}", "Zed \uE000", "Zed", "Zeb", "zed"];
    expect([...values].sort(compareCodePoints)).toEqual([
      "Zeb",
      "Zed",
      "Zed \uE000",
      "Zed \u{1F600}",
      "zed",
    ]);
    expect([...values].sort()).not.toEqual([...values].sort(compareCodePoints));
  });
});
