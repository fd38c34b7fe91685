/** Matching a day's movements (docs/adr/0108): one to one by the processor's ids, across midnight. */
import { describe, expect, it } from "vitest";
import { compareMovements, type Movement, utcDay } from "./policy";

const day = utcDay(new Date("2026-11-26T15:00:00Z"));
const at = (iso: string) => new Date(iso);
const charge = (objectId: string, amountCents: number, when: string): Movement => ({
  type: "charge",
  objectId,
  amountCents,
  at: at(when),
});

describe("compareMovements", () => {
  it("matches by type and id, amounts unsigned; reports each kind of difference once", () => {
    const ours: Movement[] = [
      charge("pi_1", 1000, "2026-11-26T10:00:00Z"),
      charge("pi_2", 500, "2026-11-26T11:00:00Z"),
      {
        type: "transfer",
        objectId: "tr_1",
        ourId: "led_1",
        amountCents: 900,
        at: at("2026-11-26T12:00:00Z"),
      },
    ];
    const theirs: Movement[] = [
      charge("pi_1", 1000, "2026-11-26T10:00:01Z"),
      { type: "transfer", objectId: "tr_1", amountCents: -901, at: at("2026-11-26T12:00:01Z") },
      charge("pi_9", 42, "2026-11-26T13:00:00Z"),
    ];
    const compared = compareMovements(ours, theirs, day);
    expect(compared.matched).toBe(1);
    expect(compared.differences.map((d) => [d.kind, d.processorId])).toEqual([
      ["missing_at_processor", "pi_2"],
      ["amount_differs", "tr_1"],
      ["missing_in_ledger", "pi_9"],
    ]);
    expect(compared.differences[1]).toMatchObject({
      ourId: "led_1",
      ourAmountCents: 900,
      processorAmountCents: 901,
    });
  });

  it("a capture just before midnight that the processor dates the next day is matched, and reported on neither day", () => {
    const ours = [charge("pi_late", 700, "2026-11-26T23:59:59.900Z")];
    const theirs = [charge("pi_late", 700, "2026-11-27T00:00:00.400Z")];
    expect(compareMovements(ours, theirs, day)).toMatchObject({ matched: 1, differences: [] });
    const next = utcDay(new Date("2026-11-27T08:00:00Z"));
    expect(compareMovements(ours, theirs, next)).toMatchObject({ matched: 1, differences: [] });
    // Outside the day on both sides: not this day's business.
    expect(compareMovements(ours, [], utcDay(new Date("2026-11-25T08:00:00Z")))).toMatchObject({
      differences: [],
    });
  });

  it("sums the rows of one processor refund recorded against several orders", () => {
    const refund = (amountCents: number, ourId: string): Movement => ({
      type: "refund",
      objectId: "re_1",
      ourId,
      amountCents,
      at: at("2026-11-26T09:00:00Z"),
    });
    const compared = compareMovements(
      [refund(3000, "ref_a"), refund(500, "ref_b")],
      [{ ...refund(-3500, "x"), ourId: undefined }],
      day,
    );
    expect(compared).toMatchObject({ matched: 1, differences: [] });
  });
});
