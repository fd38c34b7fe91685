import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { specialized } from "./specialized";

/** Adds each slot's value into `sums` by group: the shape of the search's scans. */
const sumByGroup = specialized(
  (values: Int32Array, groups: Uint8Array, sums: Uint32Array) => (count: number) => {
    let total = 0;
    for (let i = 0; i < count; i++) {
      sums[groups[i]] += values[i];
      total += values[i];
    }
    return total;
  },
);

const columns = (seed: number) => {
  const values = Int32Array.from({ length: 100 }, (_, i) => (i * seed) % 17);
  const groups = Uint8Array.from({ length: 100 }, (_, i) => (i * 7 + seed) % 5);
  return { values, groups, sums: new Uint32Array(5) };
};

/** The same sums, written out plainly. */
const expectedSums = ({ values, groups }: ReturnType<typeof columns>) => {
  const sums = new Uint32Array(5);
  values.forEach((value, i) => (sums[groups[i]] += value));
  return sums;
};

const outsideConstant = 3;

describe("specialized", () => {
  it("compiles the factory's loop for its arrays and reuses it while they are the same", () => {
    const a = columns(3);
    const loop = sumByGroup(a.values, a.groups, a.sums);
    expect(loop(100)).toBe(a.values.reduce((sum, value) => sum + value, 0));
    expect(a.sums).toEqual(expectedSums(a));
    expect(sumByGroup(a.values, a.groups, a.sums)).toBe(loop);

    const b = columns(5);
    const other = sumByGroup(b.values, b.groups, b.sums);
    expect(other).not.toBe(loop);
    other(100);
    expect(b.sums).toEqual(expectedSums(b));
  });

  it("stays right over many sets of arrays, each its own loop", () => {
    const sets = Array.from({ length: 40 }, (_, i) => columns(i + 1));
    for (let round = 0; round < 2; round++)
      for (const set of sets) {
        set.sums.fill(0);
        sumByGroup(set.values, set.groups, set.sums)(100);
        expect(set.sums).toEqual(expectedSums(set));
      }
  });

  it("lets the arrays of a loop no longer used be collected, the loop with them", () => {
    const script = `
      const module = await import(${JSON.stringify(path.join(__dirname, "specialized.ts"))});
      const { specialized } = module.default;
      const sum = specialized((values, out) => () => { out[0] = values[0] + values[1]; });
      const kept = new Uint32Array(1);
      // In a function of its own: a suspended async frame would keep its last array in a register.
      const generations = () => {
        const refs = [];
        for (let i = 0; i < 20; i++) {
          const values = new Int32Array(1 << 20).fill(i);
          sum(values, kept)();
          refs.push(new WeakRef(values));
        }
        return refs;
      };
      const refs = generations();
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        globalThis.gc();
      }
      console.log(refs.filter((ref) => ref.deref() !== undefined).length, kept[0]);`;
    const output = execFileSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script],
      { encoding: "utf8" },
    );
    expect(output.trim()).toBe("0 38");
  });

  it("runs the factory's own source, so it sees nothing of its module", () => {
    // The reason every factory must be self-contained: a compiled copy has only globals in scope.
    const leaky = specialized((values: Int32Array) => () => values[0] + outsideConstant);
    expect(() => leaky(new Int32Array(1))()).toThrow(ReferenceError);
  });

  it("uses the factory itself where code may not be compiled from strings", () => {
    // The package is CommonJS: its modules reach an ES module script as one default export.
    const script = `
      const module = await import(${JSON.stringify(path.join(__dirname, "specialized.ts"))});
      const { specialized } = module.default;
      const outside = 2;
      const loop = specialized((values) => () => values[0] + outside)(Int32Array.of(40));
      console.log(loop());`;
    const output = execFileSync(
      process.execPath,
      [
        "--disallow-code-generation-from-strings",
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
      ],
      { encoding: "utf8" },
    );
    expect(output.trim()).toBe("42");
  });
});
