/**
 * The sandbox (test-mode) processor. It keeps its own ledger in the sandbox_* tables so it behaves
 * like a remote processor shared by every instance: each request is answered once per idempotency
 * key (the same key with another request is an error, as at Stripe), and payments move
 * requires_action -> authorized -> captured, or to declined or voided. Tests count holds, captures,
 * releases and refunds in `sandbox_payments`. The `answersLate` card places its hold but the first
 * answer never arrives (UnknownOutcomeError); `retrieve` then shows the hold. The `answersSlowly`
 * card places its hold and answers only after `slowBankAnswerMs` (the sandbox's own transaction is
 * over by then: the wait is the network's, not a lock's).
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { randomId } from "../auth/tokens";
import type { Db, Tx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { type PaymentMethod, type PaymentProvider, type ProcessorPayment, UnknownOutcomeError } from "./provider";
import { sandboxCardOutcome, slowBankAnswerMs, testCards } from "./sandbox-cards";

type Row = { id: string; status: string; amountCents: number; cardLast4: string | null; declineCode: string | null; refundedCents: number };

const toPayment = (row: Row): ProcessorPayment => ({
  id: row.id, status: row.status as ProcessorPayment["status"], amountCents: row.amountCents, cardLast4: row.cardLast4, declineCode: row.declineCode, refundedCents: row.refundedCents,
});

/** What the bank answers for a method: a saved card answers as its number, except that off-session nobody can authenticate. */
const outcomeOf = async (tx: Tx, method: PaymentMethod) => {
  if (method.type === "link") return { status: "authorized" as const, declineCode: null, cardLast4: "4242", cardNumber: testCards.succeeds };
  if (method.type === "card") return { ...sandboxCardOutcome(method.number), cardLast4: method.number.slice(-4), cardNumber: method.number };
  const saved = await tx.sandboxPaymentMethod.findFirst({ where: { id: method.paymentMethodId, customerId: method.customerId } });
  if (!saved) return { status: "declined" as const, declineCode: "payment_method_not_found", cardLast4: null, cardNumber: "" };
  const outcome = sandboxCardOutcome(saved.cardNumber);
  return { ...outcome, declineCode: outcome.status === "requires_action" ? "authentication_required" : outcome.declineCode, cardLast4: saved.cardLast4, cardNumber: saved.cardNumber };
};

export const sandboxProvider = (db: Db): PaymentProvider => {
  /** Answers once per key: a repeat gets the stored answer; the same key with another request throws. */
  const once = async <T>(key: string, request: unknown, run: (tx: Tx) => Promise<T>) => {
    const hash = createHash("sha256").update(JSON.stringify(request)).digest("hex");
    return db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
      const previous = await tx.sandboxProcessorRequest.findUnique({ where: { idempotencyKey: key } });
      if (previous) {
        if (previous.requestHash !== hash) throw new Error(`sandbox processor: idempotency key ${key} reused with another request`);
        return { answer: previous.response as unknown as T, isReplay: true };
      }
      const answer = await run(tx);
      await tx.sandboxProcessorRequest.create({ data: { idempotencyKey: key, requestHash: hash, response: answer as unknown as Prisma.InputJsonValue } });
      return { answer, isReplay: false };
    });
  };
  const answer = async <T>(key: string, request: unknown, run: (tx: Tx) => Promise<T>) => (await once(key, request, run)).answer;

  /** Moves a payment from one of `from` to `to`; any other current state is answered as it is. */
  const move = async (tx: Tx, id: string, from: string[], to: string, extra: { declineCode?: string } = {}) => {
    const row = await tx.sandboxPayment.findUnique({ where: { id } });
    if (!row) throw new Error(`sandbox processor: no payment ${id}`);
    if (!from.includes(row.status)) return toPayment(row);
    return toPayment(await tx.sandboxPayment.update({ where: { id }, data: { status: to, ...extra } }));
  };

  return {
    name: "sandbox",
    lookupLagMs: 0,
    authorize: async ({ idempotencyKey, amountCents, method, description }) => {
      const request = { op: "authorize", amountCents, method: method.type === "card" ? { ...method, cvc: undefined } : method, description };
      const { answer: payment, isReplay } = await once(idempotencyKey, request, async (tx) => {
        const outcome = await outcomeOf(tx, method);
        const row = await tx.sandboxPayment.create({
          data: {
            id: randomId("sbpi_"), idempotencyKey, amountCents, method: method.type, status: outcome.status, declineCode: outcome.declineCode, cardLast4: outcome.cardLast4,
            paymentMethodId: method.type === "saved" ? method.paymentMethodId : null,
          },
        });
        return { ...toPayment(row), isLate: outcome.cardNumber === testCards.answersLate, isSlow: outcome.cardNumber === testCards.answersSlowly };
      });
      // The hold exists, but this first answer is lost on the way back.
      if (payment.isLate && !isReplay) throw new UnknownOutcomeError("sandbox processor: the bank did not answer in time");
      if (payment.isSlow && !isReplay) await sleep(slowBankAnswerMs);
      const { isLate: _isLate, isSlow: _isSlow, ...result } = payment;
      return result;
    },
    confirm: ({ idempotencyKey, paymentId, authenticated }) =>
      answer(idempotencyKey, { op: "confirm", paymentId, authenticated }, (tx) =>
        move(tx, paymentId, ["requires_action"], authenticated ? "authorized" : "declined", authenticated ? {} : { declineCode: "authentication_failed" })),
    capture: ({ idempotencyKey, paymentId }) => answer(idempotencyKey, { op: "capture", paymentId }, (tx) => move(tx, paymentId, ["authorized"], "captured")),
    release: ({ idempotencyKey, paymentId }) => answer(idempotencyKey, { op: "release", paymentId }, (tx) => move(tx, paymentId, ["authorized", "requires_action"], "voided")),
    refund: ({ idempotencyKey, paymentId, amountCents }) =>
      answer(idempotencyKey, { op: "refund", paymentId, amountCents }, async (tx) => {
        const row = await tx.sandboxPayment.findUnique({ where: { id: paymentId } });
        if (row?.status !== "captured") throw new Error(`sandbox processor: payment ${paymentId} is not captured`);
        const amount = amountCents ?? row.amountCents - row.refundedCents;
        if (amount <= 0 || row.refundedCents + amount > row.amountCents) throw new Error(`sandbox processor: refund of ${amount} exceeds what is left of ${paymentId}`);
        return toPayment(await tx.sandboxPayment.update({ where: { id: paymentId }, data: { refundedCents: { increment: amount } } }));
      }),
    retrieve: async (input) => {
      const row = await db.sandboxPayment.findUnique({ where: "paymentId" in input ? { id: input.paymentId } : { idempotencyKey: input.authorizeKey } });
      return row ? toPayment(row) : null;
    },
    saveMethod: async ({ idempotencyKey, card, customerId }) => {
      const saved = await answer(idempotencyKey, { op: "save", number: card.number, customerId }, (tx) =>
        tx.sandboxPaymentMethod.create({ data: { id: randomId("sbpm_"), customerId: customerId ?? randomId("sbcus_"), cardNumber: card.number, cardLast4: card.number.slice(-4) } }));
      return { customerId: saved.customerId, paymentMethodId: saved.id, cardLast4: saved.cardLast4 };
    },
  };
};
