/**
 * The sandbox processor as an assistant purchase would use it: a saved card charged off-session
 * with keys derived from the purchase, each key answered once, and a ledger tests can count.
 */
import { describe, expect, it } from "vitest";
import { createBarePurchase } from "../../prisma/factories/purchases";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { capturePayment, openPayment, releasePayment } from "./payment-steps";
import { type PaymentOwner, UnknownOutcomeError, ownerOf, processorKey } from "./provider";
import { sandboxProvider } from "./sandbox";
import { testCards } from "./sandbox-cards";

const provider = sandboxProvider();
const card = (number: string) => ({
  type: "card" as const,
  number,
  expMonth: 12,
  expYear: 2034,
  cvc: "123",
});
const purchase = (): PaymentOwner => ({ kind: "purchase", id: randomId("pur_") });

const saved = async (number: string) => {
  const method = await provider.saveMethod({
    idempotencyKey: randomId("save_"),
    card: card(number),
  });
  return {
    type: "saved" as const,
    customerId: method.customerId,
    paymentMethodId: method.paymentMethodId,
  };
};

/** A purchase's authorize of `amountCents` on a saved card that succeeds. */
const savedCardAuthorize = async (owner: PaymentOwner, amountCents: number) => ({
  idempotencyKey: processorKey(owner, "authorize"),
  amountCents,
  method: await saved(testCards.succeeds),
  description: "Purchase",
});

describe("sandbox processor", () => {
  it("keys derive from the owner: one function for checkout attempts and purchases", () => {
    expect(processorKey({ kind: "checkout", id: "chk_x", attempt: 1 }, "authorize")).toBe(
      "chk_x:1:authorize",
    );
    expect(processorKey({ kind: "purchase", id: "pur_x" }, "capture")).toBe("pur_x:capture");
  });

  it("holds a saved card off-session, captures once and refunds, each key answered once", async () => {
    const owner = purchase();
    const authorize = await savedCardAuthorize(owner, 5000);
    const held = await provider.authorize(authorize);
    expect(held).toMatchObject({ status: "authorized", amountCents: 5000, cardLast4: "4242" });
    expect((await provider.authorize(authorize)).id).toBe(held.id);
    const capture = { idempotencyKey: processorKey(owner, "capture"), paymentId: held.id };
    expect((await provider.capture(capture)).status).toBe("captured");
    expect((await provider.capture(capture)).status).toBe("captured");
    const refund = {
      idempotencyKey: processorKey(owner, "refund"),
      paymentId: held.id,
      amountCents: 1500,
    };
    expect((await provider.refund(refund)).refundedCents).toBe(1500);
    expect((await provider.refund(refund)).refundedCents).toBe(1500);
    expect(await provider.retrieve({ authorizeKey: authorize.idempotencyKey })).toMatchObject({
      id: held.id,
      status: "captured",
      refundedCents: 1500,
    });
    expect(
      await db().sandboxPayment.count({ where: { idempotencyKey: authorize.idempotencyKey } }),
    ).toBe(1);
  });

  it("one authorize key sent ten times at once: one payment, every answer its answer; the key with another amount throws", async () => {
    const owner = purchase();
    const authorize = await savedCardAuthorize(owner, 4200);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => provider.authorize(authorize)),
    );
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: "authorized", amountCents: 4200 });
    expect(
      await db().sandboxPayment.count({ where: { idempotencyKey: authorize.idempotencyKey } }),
    ).toBe(1);
    await expect(provider.authorize({ ...authorize, amountCents: 4300 })).rejects.toThrow(
      /reused with another request/,
    );
  });

  it("off-session, a card that wants its holder to authenticate comes back requires_action; a declined card declines", async () => {
    const authentication = await provider.authorize({
      idempotencyKey: processorKey(purchase(), "authorize"),
      amountCents: 900,
      method: await saved(testCards.requiresAuthentication),
      description: "Purchase",
    });
    expect(authentication).toMatchObject({
      status: "requires_action",
      declineCode: "authentication_required",
    });
    const declined = await provider.authorize({
      idempotencyKey: processorKey(purchase(), "authorize"),
      amountCents: 900,
      method: await saved(testCards.declined),
      description: "Purchase",
    });
    expect(declined).toMatchObject({ status: "declined", declineCode: "card_declined" });
    expect(
      (await provider.release({ idempotencyKey: randomId("k_"), paymentId: authentication.id }))
        .status,
    ).toBe("voided");
  });

  it("the late card: the first answer is lost while the hold exists; retrieve by key finds it, a replay gets it, nothing is held twice", async () => {
    const key = processorKey(purchase(), "authorize");
    const input = {
      idempotencyKey: key,
      amountCents: 700,
      method: await saved(testCards.answersLate),
      description: "Purchase",
    };
    await expect(provider.authorize(input)).rejects.toBeInstanceOf(UnknownOutcomeError);
    const found = await provider.retrieve({ authorizeKey: key });
    expect(found).toMatchObject({ status: "authorized", amountCents: 700 });
    expect((await provider.authorize(input)).id).toBe(found!.id);
    expect(await db().sandboxPayment.count({ where: { idempotencyKey: key } })).toBe(1);
    expect(await provider.retrieve({ authorizeKey: "pur_never:authorize" })).toBeNull();
  });
});

describe("payment steps", () => {
  /** A purchase payment with a real sandbox hold, recorded authorized. */
  const heldPayment = async () => {
    const owner = { kind: "purchase" as const, id: (await createBarePurchase()).id };
    const payment = await db().$transaction((tx) =>
      openPayment(tx, {
        owner,
        method: "saved",
        amountCents: 300,
        cardLast4: "4242",
        now: new Date(),
      }),
    );
    const hold = await provider.authorize({
      idempotencyKey: processorKey(ownerOf(payment), "authorize"),
      amountCents: 300,
      method: await saved(testCards.succeeds),
      description: "Purchase",
    });
    await db().payment.update({
      where: { id: payment.id },
      data: { status: "authorized", processorPaymentId: hold.id },
    });
    return { ...payment, processorPaymentId: hold.id };
  };
  const statusOf = async (id: string) =>
    (await db().payment.findUniqueOrThrow({ where: { id } })).status;

  it("a capture that finds the hold already released records capture_failed, never captured; a release of a captured payment records the capture", async () => {
    const [released, captured] = [await heldPayment(), await heldPayment()];
    await provider.release({
      idempotencyKey: randomId("k_"),
      paymentId: released.processorPaymentId,
    });
    await capturePayment(db(), provider, released, new Date());
    await provider.capture({
      idempotencyKey: randomId("k_"),
      paymentId: captured.processorPaymentId,
    });
    await releasePayment(db(), provider, captured);
    expect(await statusOf(released.id)).toBe("capture_failed");
    expect(await statusOf(captured.id)).toBe("captured");
  });
});
