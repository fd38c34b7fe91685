/**
 * Whether the production build of Next (.next) is older than what it is built from: `npm start`
 * builds first when it is (server/start.ts), and the benchmarks' tree comparison asks the same of
 * each tree it starts (bench/lib/compare-tree.ts).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What a build is made from, below the project's root. */
const sources = [
  "app",
  "server",
  "emails",
  "next.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

/** The newest modification time below `target`, generated code, dependencies and tests aside. */
const newestChange = (target: string): number => {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target)
    .filter((name) => name !== "generated" && name !== "node_modules" && !name.endsWith(".test.ts"))
    .reduce(
      (newest, name) => Math.max(newest, newestChange(path.join(target, name))),
      stat.mtimeMs,
    );
};

/** True when `root` has no production build, or a source it is built from changed after it. */
export const isBuildStale = (root: string) => {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  return (
    Math.max(...sources.map((source) => newestChange(path.join(root, source)))) >
    statSync(buildId).mtimeMs
  );
};
