/**
 * The README is the product's front page and what a newcomer follows: it opens with the two
 * commands (`npm install`, `npm start`, then `npm test`), every setting the service reads is in its
 * Configuration table, its Operating list, the CLI's usage text and the commands the CLI runs are
 * the same list, its Layout names every capability folder and the layer rule, its links resolve, and
 * benchmark figures live in docs/performance.md, not here. The decision records' index lists every
 * record. A command, variable or record added without its line (or a line left for one removed)
 * fails here.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configurationVariables } from "./platform/env";

const root = path.resolve(__dirname, "..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const cli = readFileSync(path.join(root, "server", "edges", "ops", "cli.ts"), "utf8");

const section = (heading: string) => readme.split(`\n## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

describe("README", () => {
  it("opens with the two commands: npm install then npm start, and npm test, before any section", () => {
    const beforeSections = readme.split("\n## ")[0];
    const [intro, block] = beforeSections.split("```bash\n");
    expect(intro.trim().split("\n").length).toBeLessThanOrEqual(6);
    const commands = block
      .split("```")[0]
      .split("\n")
      .map((line) => line.replace(/#.*/, "").trim())
      .filter(Boolean);
    expect(commands).toEqual(["npm install", "npm start", "npm test"]);
    const after = beforeSections.split("```").slice(2).join("```");
    for (const words of ["no database", "sandbox catalogue", "DATABASE_URL", "REDIS_URL"])
      expect(after).toContain(words);
  });

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
    const inReadme = sorted(
      [...section("Operating").matchAll(/^- `([a-z]+:[a-z-]+)[ `]/gm)].map((match) => match[1]),
    );
    expect(inUsage).toEqual(runs);
    expect(inReadme).toEqual(runs);
  });

  it("draws the capability layout as it is, top layer first, and its layer rule", () => {
    const layout = section("Layout");
    const drawn = [...layout.matchAll(/^ {2}([a-z-]+)\/ /gm)].map((match) => match[1]);
    const folders = readdirSync(path.join(root, "server"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !["generated", "testing"].includes(entry.name))
      // A folder a move left empty on this machine is not in the repository.
      .filter((entry) => readdirSync(path.join(root, "server", entry.name)).length > 0)
      .map((entry) => entry.name);
    expect([...drawn].sort()).toEqual([...folders].sort());
    // The capabilities in the order .dependency-cruiser.cjs ranks them (lowest first), drawn top down.
    const ranked = [
      ...readFileSync(path.join(root, ".dependency-cruiser.cjs"), "utf8")
        .split("const capabilities = [")[1]
        .split("];")[0]
        .matchAll(/"([a-z-]+)"/g),
    ].map((match) => match[1]);
    expect(drawn.filter((name) => ranked.includes(name))).toEqual([...ranked].reverse());
    expect(drawn.at(0)).toBe("edges");
    expect(drawn.slice(-2)).toEqual(["platform", "core"]);
    expect(layout.replace(/\s+/g, " ")).toContain(
      "edges -> procedures -> use cases -> platform -> core",
    );
    expect(layout).toContain("dependency-cruiser");
  });

  it("links only to files that exist, and points to the decisions and the figures", () => {
    const links = [...readme.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)].map((match) => match[1]);
    const local = links.filter((link) => !/^[a-z]+:/.test(link));
    expect(local.filter((link) => !existsSync(path.join(root, link)))).toEqual([]);
    for (const doc of ["docs/adr/README.md", "docs/performance.md", "docs/scaling.md"])
      expect(local).toContain(doc);
  });

  it("keeps benchmark figures in docs/performance.md", () => {
    expect(readme).not.toMatch(/\breq\/s\b|\bp9[59]\b|^## Performance/m);
  });
});

describe("docs/adr/README.md", () => {
  it("indexes every decision record once", () => {
    const adrDir = path.join(root, "docs", "adr");
    const records = readdirSync(adrDir).filter((file) => /^\d{4}-.+\.md$/.test(file));
    const index = readFileSync(path.join(adrDir, "README.md"), "utf8");
    const listed = [...index.matchAll(/^\| \[(\d{4})\]\((\d{4}-[^)]+\.md)\)/gm)];
    expect(sorted(listed.map((match) => match[2]))).toEqual(sorted(records));
    expect(listed.every((match) => match[2].startsWith(match[1]))).toBe(true);
    const numbers = records.map((file) => file.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
