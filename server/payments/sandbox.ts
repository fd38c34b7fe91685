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
import { setTimeout as sleep } from "node:timers/promises";
import { poolSql, type Sql } from "../platform/sql";
import { randomId } from "../core/ids";
import {
  type PaymentMethod,
  type PaymentProvider,
  type ProcessorPayment,
  ProcessorRefusedError,
  UnknownOutcomeError,
} from "./provider";
import { sandboxCardOutcome, slowBankAnswerMs, testCards } from "./sandbox-cards";
import {
  addLedgerRefund,
  answerOnce,
  findLedgerDispute,
  findLedgerPayment,
  findLedgerReversalOf,
  findLedgerTransferOf,
  findSavedMethod,
  findTransferForReversal,
  insertLedgerRefund,
  insertTransferReversal,
  listLedgerBalance,
  listLedgerRefunds,
  insertPaymentOnce,
  insertLedgerTransfer,
  insertSavedMethod,
  type LedgerRow,
  lookUpLedgerPayment,
  setLedgerStatus,
  transferredFrom,
} from "./store/sandbox-ledger";

/** The sandbox's connected accounts: every `acct_sandbox_…` id is one, able to receive transfers (the seed connects each store to its own). */
const isSandboxAccount = (id: string) => /^acct_sandbox_[a-z0-9_-]{1,80}$/.test(id);

const toPayment = (row: LedgerRow): ProcessorPayment => ({
  id: row.id,
  status: row.status as ProcessorPayment["status"],
  amountCents: row.amountCents,
  cardLast4: row.cardLast4,
  declineCode: row.declineCode,
  refundedCents: row.refundedCents,
});

/** What the bank answers for a method: a saved card answers as its number, except that off-session nobody can authenticate. */
const outcomeOf = async (sql: Sql, method: PaymentMethod) => {
  if (method.type === "link")
    return {
      status: "authorized" as const,
      declineCode: null,
      cardLast4: "4242",
      cardNumber: testCards.succeeds,
    };
  if (method.type === "card")
    return {
      ...sandboxCardOutcome(method.number),
      cardLast4: method.number.slice(-4),
      cardNumber: method.number,
    };
  const saved = await findSavedMethod(sql, {
    paymentMethodId: method.paymentMethodId,
    customerId: method.customerId,
  });
  if (!saved)
    return {
      status: "declined" as const,
      declineCode: "payment_method_not_found",
      cardLast4: null,
      cardNumber: "",
    };
  const outcome = sandboxCardOutcome(saved.cardNumber);
  return {
    ...outcome,
    declineCode:
      outcome.status === "requires_action" ? "authentication_required" : outcome.declineCode,
    cardLast4: saved.cardLast4,
    cardNumber: saved.cardNumber,
  };
};

const answer = async <T>(key: string, request: unknown, run: (sql: Sql) => Promise<T>) =>
  (await answerOnce(key, request, run)).answer;

/** Moves a payment from one of `from` to `to`; any other current state is answered as it is. */
const move = async (
  sql: Sql,
  id: string,
  from: string[],
  to: string,
  declineCode: string | null = null,
) => {
  const row = await findLedgerPayment(sql, id);
  if (!row) throw new Error(`sandbox processor: no payment ${id}`);
  if (!from.includes(row.status)) return toPayment(row);
  return toPayment(await setLedgerStatus(sql, { id, status: to, declineCode }));
};

/**
 * The sandbox processor, on raw SQL transactions (server/platform/sql.ts): it answers every purchase's
 * authorize, and in a real deployment that cost would be the processor's, not ours.
 */
export const sandboxProvider = (): PaymentProvider => ({
  name: "sandbox",
  lookupLagMs: 0,
  authorize: async ({ idempotencyKey, amountCents, method, description }) => {
    const request = {
      op: "authorize",
      amountCents,
      method: method.type === "card" ? { ...method, cvc: undefined } : method,
      description,
    };
    // The bank's answer depends on the card alone (a saved method never changes), so it is
    // decided before anything is written, and the payment and the key's answer go in together.
    const outcome = await outcomeOf(poolSql, method);
    const created = {
      id: randomId("sbpi_"),
      status: outcome.status,
      amountCents,
      cardLast4: outcome.cardLast4,
      declineCode: outcome.declineCode,
      refundedCents: 0,
    };
    const { answer: payment, isReplay } = await insertPaymentOnce(
      request,
      {
        ...created,
        idempotencyKey,
        method: method.type,
        paymentMethodId: method.type === "saved" ? method.paymentMethodId : null,
      },
      {
        ...toPayment(created),
        isLate: outcome.cardNumber === testCards.answersLate,
        isSlow: outcome.cardNumber === testCards.answersSlowly,
      },
    );
    // The hold exists, but this first answer is lost on the way back.
    if (payment.isLate && !isReplay)
      throw new UnknownOutcomeError("sandbox processor: the bank did not answer in time");
    if (payment.isSlow && !isReplay) await sleep(slowBankAnswerMs);
    const { isLate: _isLate, isSlow: _isSlow, ...result } = payment;
    return result;
  },
  createIntent: () =>
    Promise.reject(
      new Error(
        "sandbox processor: the hosted page takes the sandbox's test cards with its own form; there is no browser-side intent",
      ),
    ),
  confirm: ({ idempotencyKey, paymentId, authenticated }) =>
    answer(idempotencyKey, { op: "confirm", paymentId, authenticated }, (sql) =>
      move(
        sql,
        paymentId,
        ["requires_action"],
        authenticated ? "authorized" : "declined",
        authenticated ? null : "authentication_failed",
      ),
    ),
  capture: ({ idempotencyKey, paymentId }) =>
    answer(idempotencyKey, { op: "capture", paymentId }, (sql) =>
      move(sql, paymentId, ["authorized"], "captured"),
    ),
  release: ({ idempotencyKey, paymentId }) =>
    answer(idempotencyKey, { op: "release", paymentId }, (sql) =>
      move(sql, paymentId, ["authorized", "requires_action"], "voided"),
    ),
  // The sandbox's refunds succeed at once: none waits at a bank. Its bank may send one back later
  // (`ops sandbox:refund-sent-back`: sendBackLedgerRefund), as Stripe's does.
  refund: async ({ idempotencyKey, paymentId, amountCents, metadata = {} }) => ({
    refundStatus: "succeeded" as const,
    ...(await answer(
      idempotencyKey,
      { op: "refund", paymentId, amountCents, metadata },
      async (sql) => {
        const row = await findLedgerPayment(sql, paymentId);
        if (row?.status !== "captured")
          throw new ProcessorRefusedError(
            "processor_refused",
            `sandbox processor: payment ${paymentId} is not captured`,
          );
        const amount = amountCents ?? row.amountCents - row.refundedCents;
        if (amount <= 0 || row.refundedCents + amount > row.amountCents)
          throw new ProcessorRefusedError(
            "processor_refused",
            `sandbox processor: refund of ${amount} exceeds what is left of ${paymentId}`,
          );
        const refundId = await insertLedgerRefund(sql, {
          paymentId,
          amountCents: amount,
          metadata,
        });
        return {
          ...toPayment(await addLedgerRefund(sql, { id: paymentId, amountCents: amount })),
          refundId,
        };
      },
    )),
  }),
  listRefunds: async ({ paymentId }) =>
    (await listLedgerRefunds(paymentId)).map(({ failedAt, failureReason, ...refund }) => ({
      ...refund,
      status: failedAt ? "failed" : "succeeded",
      failureReason: failedAt ? failureReason : null,
    })),
  findTransfer: ({ ledgerEntryId, transferGroup }) =>
    findLedgerTransferOf({ ledgerEntryId, transferGroup }),
  findReversal: ({ ledgerEntryId, transferId }) =>
    findLedgerReversalOf({ ledgerEntryId, transferId }),
  reverseTransfer: ({ idempotencyKey, transferId, amountCents, metadata }) =>
    answer(idempotencyKey, { op: "reverse", transferId, amountCents, metadata }, async (sql) => {
      const transfer = await findTransferForReversal(sql, transferId);
      if (!transfer)
        throw new ProcessorRefusedError(
          "processor_refused",
          `sandbox processor: no transfer ${transferId}`,
        );
      if (amountCents <= 0 || transfer.reversed + amountCents > transfer.amountCents)
        throw new ProcessorRefusedError(
          "processor_refused",
          `sandbox processor: reversals of ${transferId} would exceed it`,
        );
      return insertTransferReversal(sql, { transferId, amountCents, metadata });
    }),
  retrieve: async (input) => {
    const row = await lookUpLedgerPayment(input);
    return row ? toPayment(row) : null;
  },
  transfer: ({
    idempotencyKey,
    destination,
    amountCents,
    sourcePaymentId,
    transferGroup,
    metadata,
  }) =>
    answer(
      idempotencyKey,
      { op: "transfer", destination, amountCents, sourcePaymentId, transferGroup, metadata },
      async (sql) => {
        if (!isSandboxAccount(destination))
          throw new ProcessorRefusedError(
            "processor_refused",
            `sandbox processor: no connected account ${destination}`,
          );
        if (amountCents <= 0)
          throw new ProcessorRefusedError("processor_refused", "sandbox processor: no amount");
        // Funded by a captured charge, up to what it brought (less what was reversed); else by the balance.
        const source = sourcePaymentId ? await transferredFrom(sql, sourcePaymentId) : null;
        if (sourcePaymentId && source?.status !== "captured")
          throw new ProcessorRefusedError(
            "processor_refused",
            `sandbox processor: payment ${sourcePaymentId} is not captured`,
          );
        if (source && source.sent + amountCents > source.amountCents)
          throw new ProcessorRefusedError(
            "processor_refused",
            `sandbox processor: transfers from ${sourcePaymentId} would exceed its charge`,
          );
        return insertLedgerTransfer(sql, {
          destination,
          amountCents,
          sourcePaymentId: sourcePaymentId ?? null,
          transferGroup,
          metadata,
        });
      },
    ),
  listBalanceTransactions: ({ from, to }) => listLedgerBalance(from, to),
  retrieveDispute: async ({ disputeId }) => (await findLedgerDispute(disputeId)) ?? null,
  retrieveAccount: ({ accountId }) =>
    Promise.resolve(
      isSandboxAccount(accountId) ? { id: accountId, canReceiveTransfers: true } : null,
    ),
  startCardSetup: () =>
    Promise.reject(
      new Error(
        "sandbox processor: /account/card saves the sandbox's test cards with its own form",
      ),
    ),
  retrieveCardSetup: () => Promise.resolve(null),
  // The sandbox's saved methods stay in its ledger; nothing charges them once we forget them.
  detachMethod: () => Promise.resolve(),
  saveMethod: async ({ idempotencyKey, card, customerId }) => {
    const saved = await answer(
      idempotencyKey,
      { op: "save", number: card.number, customerId },
      (sql) => insertSavedMethod(sql, { customerId, cardNumber: card.number }),
    );
    return { customerId: saved.customerId, paymentMethodId: saved.id, cardLast4: saved.cardLast4 };
  },
});
