/** When `npm start` builds first: no build, or a source newer than it (tests and generated code aside). */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isBuildStale } from "./next-build";

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes `file` below the root with its modification time `secondsAgo` in the past. */
const write = (file: string, secondsAgo: number) => {
  const target = path.join(root, file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, "x");
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(target, when, when);
  // A directory's own time moves when an entry is added: keep it old, so only the files count.
  const old = new Date(Date.now() - 3600_000);
  for (
    let dir = path.dirname(target);
    dir.startsWith(root) && dir !== root;
    dir = path.dirname(dir)
  )
    utimesSync(dir, old, old);
};

describe("isBuildStale", () => {
  it("is stale with no build, fresh when every source is older, stale when one is newer", () => {
    root = mkdtempSync(path.join(tmpdir(), "next-build-"));
    write("server/a.ts", 100);
    expect(isBuildStale(root)).toBe(true);
    write(".next/BUILD_ID", 50);
    expect(isBuildStale(root)).toBe(false);
    write("app/page.tsx", 10);
    expect(isBuildStale(root)).toBe(true);
  });

  it("a newer test, generated client or dependency does not count", () => {
    root = mkdtempSync(path.join(tmpdir(), "next-build-"));
    write("server/a.ts", 100);
    write(".next/BUILD_ID", 50);
    write("server/a.test.ts", 10);
    write("server/generated/prisma/client.ts", 10);
    write("server/node_modules/x/index.js", 10);
    expect(isBuildStale(root)).toBe(false);
    write("package-lock.json", 10);
    expect(isBuildStale(root)).toBe(true);
  });
});
