/**
 * One writer for the checkout's status (STYLE.md habit 12): no file but the checkout store may set
 * checkouts.status, through Prisma or SQL, in one function (moveCheckoutRows) that only
 * checkout-transitions.ts calls. Tests and factories may set up rows as they like.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const serverRoot = path.resolve(__dirname, "..");
const store = path.join(__dirname, "store", "checkouts.ts");
const writer = path.join(__dirname, "checkout-transitions.ts");

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "generated" || entry.name === "testing" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });

/** The argument text of each `.checkout.update…(` call, parentheses balanced. */
const checkoutUpdateCalls = (source: string) => {
  const calls: string[] = [];
  for (const match of source.matchAll(
    /\.checkout\.(?:update|updateMany|updateManyAndReturn|upsert)\(/g,
  )) {
    let depth = 1;
    let index = match.index + match[0].length;
    for (; depth > 0 && index < source.length; index++)
      depth += source[index] === "(" ? 1 : source[index] === ")" ? -1 : 0;
    calls.push(source.slice(match.index, index));
  }
  return calls;
};

const writesStatus = (file: string) => {
  const source = readFileSync(file, "utf8");
  const viaPrisma = checkoutUpdateCalls(source).some((call) =>
    /data:\s*\{[^}]*\bstatus\b/.test(call),
  );
  const viaSql = /UPDATE\s+checkouts\s+SET[^`;]*\bstatus\s*=/i.test(source);
  return viaPrisma || viaSql;
};

describe("checkout status writers", () => {
  it("only the checkout store's moveCheckoutRows changes a checkout's status, called by checkout-transitions.ts alone", () => {
    const files = sourceFiles(serverRoot);
    const writers = files.filter(writesStatus).map((file) => path.relative(serverRoot, file));
    expect(writers).toEqual([path.relative(serverRoot, store)]);
    const statusUpdates = checkoutUpdateCalls(readFileSync(store, "utf8")).filter((call) =>
      /data:\s*\{[^}]*\bstatus\b/.test(call),
    );
    expect(statusUpdates).toHaveLength(1);
    const callers = files
      .filter((file) => file !== store && /\bmoveCheckoutRows\(/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(serverRoot, file));
    expect(callers).toEqual([path.relative(serverRoot, writer)]);
  });
});
