/** wholeNumber: a JSON number or decimal digits, in its range; nothing else Number() would read. */
import { describe, expect, it } from "vitest";
import { wholeNumber } from "./zod";
import { zodFields } from "./zod-fields";
import { z } from "zod";

const schema = z.object({ n: wholeNumber(1, 48) });
const reason = (n: unknown) => {
  const parsed = schema.safeParse({ n });
  return parsed.success ? parsed.data.n : zodFields(parsed.error).n;
};

describe("wholeNumber", () => {
  it("takes a number or its decimal digits", () => {
    expect([16, "16", "1", "48", "016"].map(reason)).toEqual([16, 16, 1, 48, 16]);
  });

  it("refuses what z.coerce.number would take, naming why", () => {
    expect(
      ["0x10", "1e1", " 16", "16 ", "", "+16", "16.0", "1_6", null, true, [16]].map(reason),
    ).toEqual(Array(11).fill("must be a whole number"));
    expect([0, "0", "-3", 49, "49", 1.5].map(reason)).toEqual([
      "must be at least 1",
      "must be at least 1",
      "must be at least 1",
      "must be at most 48",
      "must be at most 48",
      "must be a whole number",
    ]);
  });

  it("says its own words when given", () => {
    const month = z.object({ n: wholeNumber(1, 12, "must be a month from 1 to 12") });
    for (const n of ["13", "0", "x", 1.5])
      expect(zodFields(month.safeParse({ n }).error!).n).toBe("must be a month from 1 to 12");
  });
});
