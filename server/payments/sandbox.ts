/**
 * The sandbox (test-mode) processor. It keeps its own ledger in the sandbox_* tables so it behaves
 * like a remote processor shared by every instance: each request is answered once per idempotency
 * key (the same key with another request is an error, as at Stripe), and payments move
 * requires_action -> authorized -> captured, or to declined or voided.
 */
import { createHash } from "node:crypto";
import { randomId } from "../auth/tokens";
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { PaymentProvider, ProcessorPayment } from "./provider";
import { sandboxCardOutcome } from "./sandbox-cards";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const toPayment = (row: { id: string; status: string; amountCents: number; cardLast4: string | null; declineCode: string | null }): ProcessorPayment => ({
  id: row.id, status: row.status as ProcessorPayment["status"], amountCents: row.amountCents, cardLast4: row.cardLast4, declineCode: row.declineCode,
});

export const sandboxProvider = (db: Db): PaymentProvider => {
  /** Answers once per key: a repeat gets the stored answer; the same key with another request throws. */
  const once = async (key: string, request: unknown, run: (tx: Tx) => Promise<ProcessorPayment>) => {
    const hash = createHash("sha256").update(JSON.stringify(request)).digest("hex");
    return db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
      const previous = await tx.sandboxProcessorRequest.findUnique({ where: { idempotencyKey: key } });
      if (previous) {
        if (previous.requestHash !== hash) throw new Error(`sandbox processor: idempotency key ${key} reused with another request`);
        return previous.response as unknown as ProcessorPayment;
      }
      const payment = await run(tx);
      await tx.sandboxProcessorRequest.create({ data: { idempotencyKey: key, requestHash: hash, response: payment as unknown as Prisma.InputJsonValue } });
      return payment;
    });
  };

  /** Moves a payment from one of `from` to `to`; any other current state is answered as it is. */
  const move = async (tx: Tx, id: string, from: string[], to: string, extra: { declineCode?: string } = {}) => {
    const row = await tx.sandboxPayment.findUnique({ where: { id } });
    if (!row) throw new Error(`sandbox processor: no payment ${id}`);
    if (!from.includes(row.status)) return toPayment(row);
    return toPayment(await tx.sandboxPayment.update({ where: { id }, data: { status: to, ...extra } }));
  };

  return {
    name: "sandbox",
    authorize: ({ idempotencyKey, amountCents, method, description }) =>
      once(idempotencyKey, { op: "authorize", amountCents, method: method.type === "card" ? { ...method, cvc: undefined } : method, description }, async (tx) => {
        const outcome = method.type === "card" ? sandboxCardOutcome(method.number) : { status: "authorized" as const, declineCode: null };
        const row = await tx.sandboxPayment.create({
          data: {
            id: randomId("sbpi_"), amountCents, method: method.type, status: outcome.status, declineCode: outcome.declineCode,
            cardLast4: method.type === "card" ? method.number.slice(-4) : "4242",
          },
        });
        return toPayment(row);
      }),
    confirm: ({ idempotencyKey, paymentId, authenticated }) =>
      once(idempotencyKey, { op: "confirm", paymentId, authenticated }, (tx) =>
        move(tx, paymentId, ["requires_action"], authenticated ? "authorized" : "declined", authenticated ? {} : { declineCode: "authentication_failed" })),
    capture: ({ idempotencyKey, paymentId }) => once(idempotencyKey, { op: "capture", paymentId }, (tx) => move(tx, paymentId, ["authorized"], "captured")),
    cancel: ({ idempotencyKey, paymentId }) => once(idempotencyKey, { op: "cancel", paymentId }, (tx) => move(tx, paymentId, ["authorized", "requires_action"], "voided")),
  };
};
