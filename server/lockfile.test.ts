/**
 * `npm ci` installs only from the committed lockfile and refuses it when a dependency, including
 * another platform's optional binary (Next's SWC builds for macOS and Windows), has no entry. This
 * registry mirror does not serve those binaries, so `npm install` here drops them silently: this
 * test catches that before a partner on another platform (or CI, which runs `npm ci` alone) does.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

type LockEntry = {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

const root = path.resolve(__dirname, "..");
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};

/** Where npm would look for `name` required from the package at `from` (nested first, then upward). */
const resolves = (from: string, name: string) => {
  let base = from;
  for (;;) {
    if (lock.packages[`${base ? `${base}/` : ""}node_modules/${name}`]) return true;
    if (!base) return false;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
};

describe("package-lock.json", () => {
  it("has an entry for every dependency and optional dependency of every package, on every platform", () => {
    const missing = Object.entries(lock.packages).flatMap(([location, entry]) =>
      Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })
        .filter((name) => !resolves(location, name))
        .map((name) => `${name} (needed by ${location || "the project"})`),
    );
    expect(missing).toEqual([]);
  });
});
