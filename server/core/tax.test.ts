/** Tax by destination for every province and territory, against a table written out here by hand. */
import { describe, expect, it } from "vitest";
import { percentOfHalfUp } from "./money";
import { provinceCodes, type Province } from "./provinces";
import { formatRate, taxLines } from "./tax";

const now = new Date("2026-11-22T17:00:00Z");

// Destination -> tax lines on a $100.00 base in November 2026, as the CRA and provinces publish them.
const expected: Record<Province, [string, string, number][]> = {
  AB: [["GST", "5%", 500]],
  BC: [
    ["GST", "5%", 500],
    ["PST", "7%", 700],
  ],
  MB: [
    ["GST", "5%", 500],
    ["PST", "7%", 700],
  ],
  NB: [["HST", "15%", 1500]],
  NL: [["HST", "15%", 1500]],
  NS: [["HST", "14%", 1400]],
  NT: [["GST", "5%", 500]],
  NU: [["GST", "5%", 500]],
  ON: [["HST", "13%", 1300]],
  PE: [["HST", "15%", 1500]],
  QC: [
    ["GST", "5%", 500],
    ["QST", "9.975%", 998],
  ],
  SK: [
    ["GST", "5%", 500],
    ["PST", "6%", 600],
  ],
  YT: [["GST", "5%", 500]],
};

describe("tax lines by destination", () => {
  it("the table covers all thirteen provinces and territories", () => {
    expect(Object.keys(expected).sort()).toEqual([...provinceCodes].sort());
  });

  it.each(provinceCodes)("%s", (province) => {
    const lines = taxLines({ province, baseCents: 10000, now });
    expect(lines.map((line) => [line.name, line.rate, line.amountCents])).toEqual(
      expected[province],
    );
  });

  it("rounds each line half-up on whole cents, separately", () => {
    // QC on $19.99: GST 99.95 -> 100; QST 199.40 -> 199.
    expect(
      taxLines({ province: "QC", baseCents: 1999, now }).map((line) => line.amountCents),
    ).toEqual([100, 199]);
    // ON on $0.50 = 6.5 cents -> 7; on $0.03 = 0.39 -> 0.
    expect(taxLines({ province: "ON", baseCents: 50, now })[0].amountCents).toBe(7);
    expect(taxLines({ province: "ON", baseCents: 3, now })[0].amountCents).toBe(0);
    expect(percentOfHalfUp(10, 5000)).toBe(1); // exactly half a cent rounds up
    expect(percentOfHalfUp(9, 5000)).toBe(0);
    expect(percentOfHalfUp(-10, 5000)).toBe(-1);
  });
});

describe("effective dates, read in the destination's local time", () => {
  it.each<[string, Province, string, string]>([
    ["Nova Scotia before 00:00 ADT on 2025-04-01", "NS", "2025-04-01T02:59:59Z", "15%"],
    ["Nova Scotia from 00:00 ADT on 2025-04-01", "NS", "2025-04-01T03:00:00Z", "14%"],
    ["New Brunswick before its 2016 increase", "NB", "2016-06-30T12:00:00Z", "13%"],
    ["New Brunswick after", "NB", "2016-07-01T12:00:00Z", "15%"],
    [
      "Newfoundland before its 2016 increase (St. John's is UTC-2:30)",
      "NL",
      "2016-07-01T02:29:59Z",
      "13%",
    ],
    ["Newfoundland after", "NL", "2016-07-01T02:30:00Z", "15%"],
    ["PEI at 14% in 2015", "PE", "2015-06-01T12:00:00Z", "14%"],
    ["PEI from 2016-10-01", "PE", "2016-10-01T12:00:00Z", "15%"],
    ["Manitoba at 8% in 2018", "MB", "2018-06-01T12:00:00Z", "8%"],
    ["Manitoba from 2019-07-01", "MB", "2019-07-01T12:00:00Z", "7%"],
    ["Saskatchewan at 5% before budget day 2017", "SK", "2017-03-22T12:00:00Z", "5%"],
    ["Saskatchewan from 2017-03-23", "SK", "2017-03-23T12:00:00Z", "6%"],
  ])("%s", (_name, province, instant, rate) => {
    const lines = taxLines({ province, baseCents: 10000, now: new Date(instant) });
    expect(lines.at(-1)!.rate).toBe(rate);
  });

  it("refuses dates the table does not cover", () => {
    expect(() =>
      taxLines({ province: "ON", baseCents: 100, now: new Date("2012-01-01T12:00:00Z") }),
    ).toThrow(/no tax rates/);
  });

  it("formats rates without trailing zeros", () => {
    expect([formatRate(5000), formatRate(9975), formatRate(14500), formatRate(12000)]).toEqual([
      "5%",
      "9.975%",
      "14.5%",
      "12%",
    ]);
  });
});
