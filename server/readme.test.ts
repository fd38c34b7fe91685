/**
 * The README is what a newcomer follows: every setting the service reads is in its Configuration
 * table, and its Operating table, the CLI's usage text and the commands the CLI runs are the same
 * list. A command or variable added without its line (or a line left for one removed) fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configurationVariables } from "./platform/env";

const root = path.resolve(__dirname, "..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const cli = readFileSync(path.join(root, "server", "edges", "ops", "cli.ts"), "utf8");

const section = (heading: string) => readme.split(`\n## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

describe("README", () => {
  it("lists every configuration variable the service validates at start", () => {
    const documented = new Set(
      [...section("Configuration").matchAll(/^\| `([A-Z_]+)`/gm)].map((match) => match[1]),
    );
    expect(configurationVariables.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("documents exactly the ops commands the CLI runs, as its usage text does", () => {
    const runs = sorted([...cli.matchAll(/case "([a-z]+:[a-z-]+)"/g)].map((match) => match[1]));
    const usage = cli.split("const usage = `")[1].split("`;")[0];
    const inUsage = sorted(
      [...usage.matchAll(/^\s{2}([a-z]+:[a-z-]+)/gm)].map((match) => match[1]),
    );
    const operating = section("Operating");
    const inReadme = sorted(
      [...operating.matchAll(/`([a-z]+:[a-z-]+)[ `]/g)].map((match) => match[1]),
    );
    expect(inUsage).toEqual(runs);
    expect(inReadme).toEqual(runs);
  });
});
