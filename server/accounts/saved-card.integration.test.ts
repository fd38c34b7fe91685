/** The saved card on the dashboard (save, replace, remove), and what purchases read (readSavedCard). */
import { afterEach, describe, expect, it } from "vitest";
import { createLinkedPerson, createPerson } from "../../prisma/factories";
import { fixedClock } from "../platform/clock";
import { db } from "../platform/db";
import { resetEnv } from "../platform/env";
import { sandboxProvider } from "../payments/sandbox";
import { testCards } from "../payments/sandbox-cards";
import { createInnerContext } from "../platform/trpc/context";
import { createCaller } from "../edges/trpc/caller";
import { partnerCaller, shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";
import { readSavedCard } from "./store/saved-cards";
import { useProductionEnv } from "../testing/production-env";

const card = (
  number: string = testCards.succeeds,
  more: Partial<{ exp_month: number; exp_year: number; cvc: string }> = {},
) => ({ number, exp_month: 12, exp_year: 2030, cvc: "123", ...more });
const visa4242 = {
  brand: "visa",
  last4: "4242",
  exp_month: 12,
  exp_year: 2030,
  created_at: expect.any(String),
};

afterEach(() => {
  delete process.env.SERVICE_ENV;
  delete process.env.APP_SECRET;
  resetEnv();
});

describe("saved card", () => {
  it("is saved at the processor, shown as brand and last four only, and read by purchases", async () => {
    const { person } = await createPerson();
    expect(await shopper(person.id).account.getSavedCard()).toEqual({
      card: null,
      card_entry: "sandbox_test_cards",
    });
    expect(await readSavedCard(db(), person.id)).toBeNull();
    const saved = await shopper(person.id).account.saveCard(card("4242 4242 4242 4242"));
    expect(saved).toEqual({ card: visa4242, card_entry: "sandbox_test_cards" });
    expect(await shopper(person.id).account.getSavedCard()).toEqual(saved);
    expect(JSON.stringify(saved)).not.toMatch(/424242|cvc|sbpm_|sbcus_/);

    const stored = await readSavedCard(db(), person.id);
    expect(stored).toMatchObject({
      processorCustomerId: expect.stringMatching(/^sbcus_/),
      paymentMethodId: expect.stringMatching(/^sbpm_/),
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2030,
    });
    // Only references are stored: no column holds the number or the CVC.
    expect(
      JSON.stringify(await db().savedCard.findUniqueOrThrow({ where: { personId: person.id } })),
    ).not.toMatch(/4242424242424242|"123"/);
    // The processor holds the card for that customer, and purchases can hold it off-session.
    expect(
      await db().sandboxPaymentMethod.findUniqueOrThrow({ where: { id: stored!.paymentMethodId } }),
    ).toMatchObject({ customerId: stored!.processorCustomerId, cardLast4: "4242" });
    const hold = await sandboxProvider().authorize({
      idempotencyKey: `pur_test_${person.id}:authorize`,
      amountCents: 1_000,
      description: "test",
      method: {
        type: "saved",
        customerId: stored!.processorCustomerId,
        paymentMethodId: stored!.paymentMethodId,
      },
    });
    expect(hold).toMatchObject({ status: "authorized", cardLast4: "4242" });
  });

  it("is replaced by the next card on the same processor customer, and removed", async () => {
    const { person } = await createPerson();
    await shopper(person.id).account.saveCard(card());
    const first = (await readSavedCard(db(), person.id))!;
    const replaced = await shopper(person.id).account.saveCard(
      card(testCards.requiresAuthentication, { exp_month: 1, exp_year: 31 }),
    );
    expect(replaced.card).toMatchObject({
      brand: "visa",
      last4: "3155",
      exp_month: 1,
      exp_year: 2031,
    });
    const second = (await readSavedCard(db(), person.id))!;
    expect(second.processorCustomerId).toBe(first.processorCustomerId);
    expect(second.paymentMethodId).not.toBe(first.paymentMethodId);
    expect(await db().savedCard.count({ where: { personId: person.id } })).toBe(1);

    expect(await shopper(person.id).account.removeCard()).toEqual({
      card: null,
      card_entry: "sandbox_test_cards",
    });
    expect(await readSavedCard(db(), person.id)).toBeNull();
    expect(await shopper(person.id).account.removeCard()).toEqual({
      card: null,
      card_entry: "sandbox_test_cards",
    });
  });

  it("refuses the declined test card at save time (as a SetupIntent would) and keeps the saved one", async () => {
    const { person } = await createPerson();
    await shopper(person.id).account.saveCard(card());
    const methods = await db().sandboxPaymentMethod.count();
    const error = await failure(shopper(person.id).account.saveCard(card(testCards.declined)));
    expect(error.code).toBe("invalid_request");
    expect(error.options.fields?.number).toContain("declined");
    expect((await shopper(person.id).account.getSavedCard()).card).toMatchObject({ last4: "4242" });
    expect(await db().sandboxPaymentMethod.count()).toBe(methods);
  });

  it.each([
    ["a mistyped number (Luhn)", card("4242 4242 4242 4241"), "number", "not a valid card number"],
    ["too few digits", card("4242"), "number", "12 to 19 digits"],
    ["a real (non-test) number", card("5555555555554444"), "number", "not a sandbox test card"],
    ["month 13", card(undefined, { exp_month: 13 }), "exp_month", "month from 1 to 12"],
    ["an expired year", card(undefined, { exp_year: 2025 }), "exp_year", "in the past"],
    [
      "an expired month of this year",
      card(undefined, { exp_month: 10, exp_year: 2026 }),
      "exp_month",
      "in the past",
    ],
    ["a two-digit CVC", card(undefined, { cvc: "12" }), "cvc", "3 or 4 digits"],
    ["letters in the CVC", card(undefined, { cvc: "12a" }), "cvc", "3 or 4 digits"],
  ])("refuses %s with a field error and saves nothing", async (_case, input, field, message) => {
    const { person } = await createPerson();
    const caller = createCaller(
      createInnerContext({
        requestId: "test",
        clock: fixedClock(new Date("2026-11-22T10:00:00Z")),
        actor: { kind: "person", personId: person.id },
      }),
    );
    const error = await failure(caller.account.saveCard(input));
    expect(error.code).toBe("invalid_request");
    expect(error.options.fields?.[field]).toContain(message);
    expect(await readSavedCard(db(), person.id)).toBeNull();
  });

  it("accepts this month's expiry, and refuses unknown fields", async () => {
    const { person } = await createPerson();
    const caller = createCaller(
      createInnerContext({
        requestId: "test",
        clock: fixedClock(new Date("2026-11-30T23:59:00Z")),
        actor: { kind: "person", personId: person.id },
      }),
    );
    expect(
      (await caller.account.saveCard(card(undefined, { exp_month: 11, exp_year: 2026 }))).card,
    ).toMatchObject({ exp_month: 11, exp_year: 2026 });
    expect(
      (await failure(caller.account.saveCard({ ...card(), person_id: "per_other" } as never)))
        .options.fields,
    ).toEqual({ person_id: "is not a known field" });
  });

  it("person A never sees or removes person B's card", async () => {
    const { person: a } = await createPerson();
    const { person: b } = await createPerson();
    await shopper(b.id).account.saveCard(card());
    expect((await shopper(a.id).account.getSavedCard()).card).toBeNull();
    await shopper(a.id).account.removeCard();
    await shopper(a.id).account.saveCard(card(testCards.answersLate));
    expect((await shopper(b.id).account.getSavedCard()).card).toMatchObject({ last4: "4242" });
    expect((await readSavedCard(db(), a.id))?.processorCustomerId).not.toBe(
      (await readSavedCard(db(), b.id))?.processorCustomerId,
    );
  });

  it("needs a session: visitors and every token, even one linked to the person, are refused", async () => {
    const { person } = await createLinkedPerson();
    await shopper(person.id).account.saveCard(card());
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
      expect((await failure(caller.account.getSavedCard())).code).toBe("unauthorized");
      expect(
        (await failure(caller.account.saveCard(card(testCards.requiresAuthentication)))).code,
      ).toBe("unauthorized");
      expect((await failure(caller.account.removeCard())).code).toBe("unauthorized");
    }
    expect(await readSavedCard(db(), person.id)).toMatchObject({ last4: "4242" });
  });

  it("in production refuses a raw card number and says the processor's form is needed", async () => {
    const { person } = await createPerson();
    useProductionEnv({ APP_SECRET: "y".repeat(40) });
    expect((await shopper(person.id).account.getSavedCard()).card_entry).toBe("processor_form");
    const error = await failure(shopper(person.id).account.saveCard(card()));
    expect(error.code).toBe("forbidden");
    expect(error.message).toContain("processor's own form");
    expect(await readSavedCard(db(), person.id)).toBeNull();
  });
});
