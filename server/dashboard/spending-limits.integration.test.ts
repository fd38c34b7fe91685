/** The spending-limit dashboard's procedures, as the signed-in shopper calls them (issue 9). */
import { describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { fixedClock } from "../platform/clock";
import { db } from "../platform/db";
import { purchaseRefusal } from "../core/spending-limits";
import { createInnerContext } from "../platform/trpc/context";
import { createCaller } from "../edges/trpc/caller";
import { partnerCaller, shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";
import { readSpendingSettings } from "../accounts/store/persons";

const limits = (perOrder: string, per30Days: string) => ({
  limit_per_order: perOrder,
  limit_per_30_days: per30Days,
});
const cad = (amount: string) => ({ amount, currency: "CAD" });

describe("spending limits", () => {
  it("start unset, so purchases would be refused with spending_limit_not_set", async () => {
    const { person } = await createPerson();
    expect(await shopper(person.id).account.getSpendingSettings()).toEqual({
      limit_per_order: null,
      limit_per_30_days: null,
      purchases_paused: false,
      paused_changed_at: null,
    });
    expect(purchaseRefusal((await readSpendingSettings(db(), person.id))!)).toBe(
      "spending_limit_not_set",
    );
  });

  it("are saved as cents from decimal strings and read back as Money", async () => {
    const { person } = await createPerson();
    expect(
      await shopper(person.id).account.setSpendingLimits(limits("500.00", "2000")),
    ).toMatchObject({ limit_per_order: cad("500.00"), limit_per_30_days: cad("2000.00") });
    expect(
      await db().person.findUniqueOrThrow({
        where: { id: person.id },
        select: { spendingLimitPerOrderCents: true, spendingLimitPer30DaysCents: true },
      }),
    ).toEqual({ spendingLimitPerOrderCents: 50_000, spendingLimitPer30DaysCents: 200_000 });
    await shopper(person.id).account.setSpendingLimits(limits(" 0.01 ", "50000.00"));
    expect(await shopper(person.id).account.getSpendingSettings()).toMatchObject({
      limit_per_order: cad("0.01"),
      limit_per_30_days: cad("50000.00"),
    });
    expect(purchaseRefusal((await readSpendingSettings(db(), person.id))!)).toBeNull();
  });

  it.each([
    ["three decimals", limits("500.001", "2000.00"), "limit_per_order", "at most two decimals"],
    ["a negative amount", limits("-1", "2000.00"), "limit_per_order", "must be more than 0.00"],
    ["zero", limits("500.00", "0.00"), "limit_per_30_days", "must be more than 0.00"],
    [
      "a float-looking exponent",
      limits("5e2", "2000.00"),
      "limit_per_order",
      "at most two decimals",
    ],
    ["an empty value", limits("", "2000.00"), "limit_per_order", "at most two decimals"],
    [
      "more than the maximum",
      limits("500.00", "50000.01"),
      "limit_per_30_days",
      "must be at most 50000.00",
    ],
    [
      "per order above per 30 days",
      limits("2000.01", "2000.00"),
      "limit_per_order",
      "must not be more than the limit per 30 days",
    ],
  ])("refuses %s with a field error and changes nothing", async (_case, input, field, message) => {
    const { person } = await createPerson();
    await shopper(person.id).account.setSpendingLimits(limits("10.00", "20.00"));
    const error = await failure(shopper(person.id).account.setSpendingLimits(input));
    expect(error.code).toBe("invalid_request");
    expect(error.options.fields?.[field]).toContain(message);
    expect(await shopper(person.id).account.getSpendingSettings()).toMatchObject({
      limit_per_order: cad("10.00"),
      limit_per_30_days: cad("20.00"),
    });
  });

  it("refuses unknown fields (mass assignment) and a number instead of a string", async () => {
    const { person } = await createPerson();
    expect(
      (
        await failure(
          shopper(person.id).account.setSpendingLimits({
            ...limits("1.00", "2.00"),
            person_id: "per_other",
          } as never),
        )
      ).options.fields,
    ).toEqual({ person_id: "is not a known field" });
    expect(
      (
        await failure(
          shopper(person.id).account.setSpendingLimits({
            limit_per_order: 500,
            limit_per_30_days: "2000.00",
          } as never),
        )
      ).code,
    ).toBe("invalid_request");
  });

  it("pause and resume record when the switch flipped, once per flip", async () => {
    const { person } = await createPerson();
    const clock = fixedClock(new Date("2026-11-22T10:00:00Z"));
    const caller = createCaller(
      createInnerContext({
        requestId: "test",
        clock,
        actor: { kind: "person", personId: person.id },
      }),
    );
    await caller.account.setSpendingLimits(limits("100.00", "300.00"));
    expect(await caller.account.setPurchasesPaused({ paused: true })).toMatchObject({
      purchases_paused: true,
      paused_changed_at: "2026-11-22T10:00:00.000Z",
    });
    expect(purchaseRefusal((await readSpendingSettings(db(), person.id))!)).toBe(
      "purchases_paused",
    );
    clock.advance(60_000);
    expect((await caller.account.setPurchasesPaused({ paused: true })).paused_changed_at).toBe(
      "2026-11-22T10:00:00.000Z",
    );
    expect(await caller.account.setPurchasesPaused({ paused: false })).toMatchObject({
      purchases_paused: false,
      paused_changed_at: "2026-11-22T10:01:00.000Z",
    });
    expect(purchaseRefusal((await readSpendingSettings(db(), person.id))!)).toBeNull();
  });

  it("person A's calls never touch person B", async () => {
    const { person: a } = await createPerson();
    const { person: b } = await createPerson();
    await shopper(b.id).account.setSpendingLimits(limits("5.00", "6.00"));
    await shopper(a.id).account.setSpendingLimits(limits("700.00", "900.00"));
    await shopper(a.id).account.setPurchasesPaused({ paused: true });
    expect(await shopper(b.id).account.getSpendingSettings()).toEqual({
      limit_per_order: cad("5.00"),
      limit_per_30_days: cad("6.00"),
      purchases_paused: false,
      paused_changed_at: null,
    });
  });

  it("need a session: visitors and every token, even one linked to the person, are refused", async () => {
    const { person } = await createPerson();
    const linked = createCaller(
      createInnerContext({
        requestId: "test",
        actor: {
          kind: "client",
          clientId: "cli_x",
          tokenId: "tok_x",
          scopes: ["profile:read", "purchase:write"],
          personId: person.id,
        },
      }),
    );
    for (const caller of [visitorCaller(), partnerCaller(), linked]) {
      expect((await failure(caller.account.setSpendingLimits(limits("1.00", "2.00")))).code).toBe(
        "unauthorized",
      );
      expect((await failure(caller.account.setPurchasesPaused({ paused: true }))).code).toBe(
        "unauthorized",
      );
      expect((await failure(caller.account.getSpendingSettings())).code).toBe("unauthorized");
    }
    expect(await shopper(person.id).account.getSpendingSettings()).toMatchObject({
      limit_per_order: null,
      purchases_paused: false,
    });
  });
});
