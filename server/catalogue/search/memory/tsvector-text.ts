/**
 * Reads PostgreSQL's text form of a tsvector (`'black':3A,9 'coat':8A 'size'`) into lexemes and the
 * score of the best weight class each occurs in (A 8, B 4, C 2, D 1), which is what relevance sums.
 * The text form quotes every lexeme, doubling `'` and `\`; a position without a letter is class D,
 * and a lexeme without positions (a stripped vector) counts as D too, as ts_filter drops it.
 */
import { weightScores } from "../types";

const quote = 39; // '
const backslash = 92; // \
const colon = 58;
const space = 32;

/** Calls `visit(lexeme, bestScore)` for every lexeme of a tsvector in text form. */
export const parseTsvectorText = (text: string, visit: (lexeme: string, score: number) => void) => {
  let at = 0;
  const length = text.length;
  while (at < length) {
    while (at < length && text.charCodeAt(at) === space) at++;
    if (at >= length) return;
    if (text.charCodeAt(at) !== quote)
      throw new Error(`Unexpected tsvector text at ${at}: ${text.slice(at, at + 20)}`);
    at++;
    let start = at;
    let lexeme = "";
    for (;;) {
      const code = text.charCodeAt(at);
      if (Number.isNaN(code)) throw new Error("Unterminated lexeme in tsvector text");
      if (code === backslash) {
        lexeme += text.slice(start, at);
        start = at + 1; // keep the escaped character itself
        at += 2;
      } else if (code === quote) {
        if (text.charCodeAt(at + 1) === quote) {
          lexeme += text.slice(start, at + 1);
          at += 2;
          start = at;
        } else {
          lexeme += text.slice(start, at);
          at++;
          break;
        }
      } else at++;
    }
    // D is the lowest class, so the best class is the best letter seen, else D.
    let best: number = weightScores.D;
    if (text.charCodeAt(at) === colon) {
      for (at++; at < length && text.charCodeAt(at) !== space; at++) {
        const code = text.charCodeAt(at);
        const score =
          code === 65
            ? weightScores.A
            : code === 66
              ? weightScores.B
              : code === 67
                ? weightScores.C
                : 0;
        if (score > best) best = score;
      }
    }
    visit(lexeme, best);
  }
};
