/**
 * The Stripe processor: a hold is a PaymentIntent created with `capture_method: "manual"` and
 * `confirm: true` (off-session, `off_session: true`, for a saved card), captured or cancelled
 * later; cards are saved with a SetupIntent for a Customer. Every write passes our key as Stripe's
 * `Idempotency-Key`, and the authorize key is kept in the PaymentIntent's metadata so that an
 * unknown outcome (timeout, lost connection, 5xx) is found again with the Search API, never by
 * creating a second PaymentIntent.
 *
 * Card numbers never go to Stripe's API: in production the page would collect the card with
 * Stripe.js and send a PaymentMethod id. Here the sandbox test numbers map to Stripe's test
 * PaymentMethods (`pm_card_visa`, …); any other number, and Link, are refused.
 */
import Stripe from "stripe";
import { stripeClientSettings } from "./processor-budget";
import { pacedHttpClient, type StripePace } from "./stripe-pace";
import {
  type BalanceTransaction,
  type PaymentMethod,
  type PaymentProvider,
  type ProcessorPayment,
  type ProcessorRefund,
  ProcessorRefusedError,
  UnknownOutcomeError,
} from "./provider";
import { testCards } from "./sandbox-cards";

/** Stripe's test PaymentMethods for the sandbox's test card numbers. */
const testPaymentMethods: Record<string, string> = {
  [testCards.succeeds]: "pm_card_visa",
  [testCards.answersLate]: "pm_card_visa",
  [testCards.answersSlowly]: "pm_card_visa",
  [testCards.declined]: "pm_card_chargeDeclined",
  [testCards.requiresAuthentication]: "pm_card_authenticationRequired",
};

const cardPaymentMethod = (card: Extract<PaymentMethod, { type: "card" }>) => {
  const id = testPaymentMethods[card.number];
  if (!id)
    throw new Error(
      "stripe processor: card numbers are collected by Stripe.js; only the test cards can be sent from the server",
    );
  return id;
};

const statusOf = (intent: Stripe.PaymentIntent): ProcessorPayment["status"] => {
  switch (intent.status) {
    case "requires_capture":
      return "authorized";
    case "succeeded":
      return "captured";
    case "canceled":
      return "voided";
    case "requires_action":
      return "requires_action";
    // Opened for the person's browser (createIntent) and not confirmed yet: awaiting the person, as an authentication step is.
    case "requires_confirmation":
      return "requires_action";
    case "requires_payment_method":
      return intent.last_payment_error ? "declined" : "requires_action";
    default:
      throw new UnknownOutcomeError(`stripe processor: payment ${intent.id} is ${intent.status}`);
  }
};

const toPayment = (intent: Stripe.PaymentIntent, refundedCents?: number): ProcessorPayment => ({
  id: intent.id,
  status: statusOf(intent),
  amountCents: intent.amount,
  cardLast4: null,
  declineCode: intent.last_payment_error
    ? (intent.last_payment_error.code ?? "card_declined")
    : null,
  ...(refundedCents === undefined ? {} : { refundedCents }),
});

/** Stripe's errors in our terms: a card error carries its PaymentIntent (a decline, or authentication needed); a transport or 5xx error is an unknown outcome. */
const mapError = (error: unknown): ProcessorPayment | never => {
  if (error instanceof Stripe.errors.StripeCardError && error.payment_intent) {
    const intent = error.payment_intent;
    if (error.code === "authentication_required")
      return {
        ...toPayment(intent),
        status: "requires_action",
        declineCode: "authentication_required",
      };
    return { ...toPayment(intent), status: "declined", declineCode: error.code ?? "card_declined" };
  }
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    throw new UnknownOutcomeError(`stripe processor: ${error.message}`, { cause: error });
  }
  throw error;
};

/**
 * A PaymentIntent create that Stripe refused outright (review M4): a 4xx that is not a card's
 * (those carry their PaymentIntent: a decline) and not a rate limit. No PaymentIntent was made, so
 * nothing is held: a refusal, never an unknown outcome (which is for transport errors, 5xx and
 * rate limits: mapError). resource_missing is the saved card or customer Stripe no longer has.
 */
const mapCreateError = (error: unknown): ProcessorPayment | never => {
  if (error instanceof Stripe.errors.StripeCardError && error.payment_intent)
    return mapError(error);
  throwIfRefused(error);
  return mapError(error);
};

/** Throws the refusal when Stripe refused the request itself (see mapCreateError); returns otherwise. */
const throwIfRefused = (error: unknown) => {
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === "resource_missing"
  ) {
    throw new ProcessorRefusedError(
      "payment_method_not_found",
      `stripe processor: ${error.message}`,
      { cause: error },
    );
  }
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError ||
    error instanceof Stripe.errors.StripeIdempotencyError ||
    error instanceof Stripe.errors.StripeInvalidRequestError
  ) {
    throw new ProcessorRefusedError("processor_refused", `stripe processor: ${error.message}`, {
      cause: error,
    });
  }
};

/**
 * A transfer Stripe refused (no such destination, an account that cannot receive transfers, more
 * than the charge brought): nothing was sent, and the same request will not fare better, so the
 * store's share waits for the operator. Transport errors, 5xx and rate limits: an unknown outcome.
 */
const mapTransferError = (error: unknown): never => {
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripePermissionError ||
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripeIdempotencyError
  )
    throw new ProcessorRefusedError("processor_refused", `stripe processor: ${error.message}`, {
      cause: error,
    });
  mapError(error);
  throw error;
};

/** A refund's state in our terms: `requires_action` and `pending` wait at the bank; `canceled` gave nothing back. */
const refundStatusOf = (refund: Stripe.Refund): ProcessorRefund["status"] =>
  refund.status === "succeeded"
    ? "succeeded"
    : refund.status === "failed" || refund.status === "canceled"
      ? "failed"
      : "pending";

/** Stripe's balance transaction types we record, in our terms (a reversal is `transfer_refund`). */
const balanceTypes: Record<string, BalanceTransaction["type"]> = {
  charge: "charge",
  payment: "charge",
  refund: "refund",
  payment_refund: "refund",
  transfer: "transfer",
  transfer_refund: "transfer_reversal",
};

/** A balance transaction with the id we recorded of its source: a charge's PaymentIntent, else the source's own id. */
const toBalanceTransaction = (transaction: Stripe.BalanceTransaction): BalanceTransaction => {
  const source = transaction.source;
  const sourceId = typeof source === "string" ? source : (source?.id ?? "");
  const intent =
    source && typeof source === "object" && "payment_intent" in source
      ? (source as { payment_intent?: string | { id: string } | null }).payment_intent
      : null;
  // An adjustment is a dispute's only when its source is one: its withdrawal, or its reinstatement once won.
  const isDispute = transaction.type === "adjustment" && sourceId.startsWith("du_");
  // A refund the bank sent back returns its amount under the refund's id.
  if (transaction.type === "refund_failure")
    return {
      id: transaction.id,
      type: "refund",
      objectId: `${sourceId}:failed`,
      amountCents: transaction.amount,
      createdAt: new Date(transaction.created * 1000),
    };
  const type = isDispute
    ? "dispute"
    : transaction.type === "adjustment"
      ? "other"
      : (balanceTypes[transaction.type] ?? "other");
  return {
    id: transaction.id,
    type,
    objectId:
      type === "charge" && intent
        ? typeof intent === "string"
          ? intent
          : intent.id
        : isDispute && transaction.amount > 0
          ? `${sourceId}:reinstated`
          : sourceId,
    amountCents: transaction.amount,
    createdAt: new Date(transaction.created * 1000),
  };
};

/** A lookup's error: null when Stripe has no such object; any other error in our terms. */
const missingAsNull = (error: unknown): null => {
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing")
    return null;
  mapError(error);
  throw error;
};

/** Cards only, confirmed on the server: no payment method that redirects (which would need a return_url). */
const noRedirects = { enabled: true, allow_redirects: "never" } as const;

const isUnexpectedState = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError &&
  error.code === "payment_intent_unexpected_state";

export const stripeProvider = (options: {
  secretKey: string;
  apiBase?: string;
  timeoutMs?: number;
  maxNetworkRetries?: number;
  /** Keeps the requests under Stripe's rate limits (stripe-pace.ts); the service's own provider always has it. */
  pace?: StripePace;
}): PaymentProvider => {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  const stripe = new Stripe(options.secretKey, {
    // Retries reuse the same Idempotency-Key (Stripe replays the first answer), within a bounded time.
    // Their product bounds how long a call may run (processor-budget.ts): settlement waits longer.
    maxNetworkRetries: options.maxNetworkRetries ?? stripeClientSettings.maxNetworkRetries,
    timeout: options.timeoutMs ?? stripeClientSettings.timeoutMs,
    telemetry: false,
    ...(options.pace ? { httpClient: pacedHttpClient(options.pace, options.secretKey) } : {}),
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "http:" ? 80 : 443),
          protocol: base.protocol === "http:" ? "http" : "https",
        }
      : {}),
  });
  const retrieveIntent = async (id: string) => toPayment(await stripe.paymentIntents.retrieve(id));
  /** A capture or cancel that finds the PaymentIntent already moved answers with its state (a replayed step is a success). */
  const move = async (id: string, call: () => Promise<Stripe.PaymentIntent>) => {
    try {
      return toPayment(await call());
    } catch (error) {
      if (isUnexpectedState(error)) return retrieveIntent(id);
      return mapError(error);
    }
  };
  /** Every refund of the PaymentIntent (auto-paged): ours carry `metadata.refund`. */
  const listRefunds = async (paymentId: string): Promise<ProcessorRefund[]> => {
    const refunds: ProcessorRefund[] = [];
    for await (const refund of stripe.refunds.list({ payment_intent: paymentId, limit: 100 }))
      refunds.push({
        id: refund.id,
        amountCents: refund.amount,
        status: refundStatusOf(refund),
        failureReason: refund.failure_reason ?? null,
        metadata: (refund.metadata ?? {}) as Record<string, string>,
      });
    return refunds;
  };
  /** Cancels the PaymentIntent: releases a hold, or abandons an authentication step. */
  const cancel = (idempotencyKey: string, paymentId: string) =>
    move(paymentId, () =>
      stripe.paymentIntents.cancel(
        paymentId,
        { cancellation_reason: "abandoned" },
        { idempotencyKey },
      ),
    );

  return {
    name: "stripe",
    // The Search API can lag behind writes (Stripe documents up to an hour during outages).
    lookupLagMs: 60 * 60_000,
    authorize: async ({ idempotencyKey, amountCents, method, description }) => {
      if (method.type === "link")
        throw new Error("stripe processor: Link needs Stripe.js on the page");
      const target =
        method.type === "saved"
          ? {
              customer: method.customerId,
              payment_method: method.paymentMethodId,
              off_session: true,
            }
          : { payment_method: cardPaymentMethod(method) };
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: "cad",
            capture_method: "manual",
            confirm: true,
            automatic_payment_methods: noRedirects,
            description,
            metadata: { authorize_key: idempotencyKey },
            ...target,
          },
          { idempotencyKey },
        );
        return toPayment(intent);
      } catch (error) {
        return mapCreateError(error);
      }
    },
    createIntent: async ({ idempotencyKey, amountCents, description, metadata }) => {
      try {
        // Not confirmed here: the page confirms it with Stripe.js (the Payment Element), which may redirect for 3-D Secure and back to the return_url.
        const intent = await stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: "cad",
            capture_method: "manual",
            automatic_payment_methods: { enabled: true },
            description,
            metadata: { ...metadata, authorize_key: idempotencyKey },
          },
          { idempotencyKey },
        );
        if (!intent.client_secret)
          throw new Error(
            `stripe processor: PaymentIntent ${intent.id} came without a client_secret`,
          );
        return { id: intent.id, clientSecret: intent.client_secret };
      } catch (error) {
        throwIfRefused(error);
        mapError(error);
        throw error;
      }
    },
    // 3-D Secure happens in the browser with Stripe.js; afterwards the PaymentIntent says how it went.
    confirm: async ({ idempotencyKey, paymentId, authenticated }) => {
      const payment = await retrieveIntent(paymentId);
      if (payment.status !== "requires_action" || authenticated) return payment;
      await cancel(idempotencyKey, paymentId);
      return { ...payment, status: "declined", declineCode: "authentication_failed" };
    },
    capture: ({ idempotencyKey, paymentId }) =>
      move(paymentId, () => stripe.paymentIntents.capture(paymentId, {}, { idempotencyKey })),
    release: ({ idempotencyKey, paymentId }) => cancel(idempotencyKey, paymentId),
    refund: async ({ idempotencyKey, paymentId, amountCents, metadata }) => {
      try {
        const made = await stripe.refunds.create(
          {
            payment_intent: paymentId,
            ...(amountCents === undefined ? {} : { amount: amountCents }),
            ...(metadata ? { metadata } : {}),
          },
          { idempotencyKey },
        );
        const refunded = (await listRefunds(paymentId))
          .filter((refund) => refund.status !== "failed")
          .reduce((sum, refund) => sum + refund.amountCents, 0);
        return {
          ...toPayment(await stripe.paymentIntents.retrieve(paymentId), refunded),
          refundId: made.id,
          refundStatus: refundStatusOf(made),
        };
      } catch (error) {
        return mapTransferError(error);
      }
    },
    listRefunds: async ({ paymentId }) => {
      try {
        return await listRefunds(paymentId);
      } catch (error) {
        mapError(error);
        throw error;
      }
    },
    findTransfer: async ({ ledgerEntryId, transferGroup }) => {
      try {
        for await (const made of stripe.transfers.list({
          transfer_group: transferGroup,
          limit: 100,
        }))
          if (made.metadata?.ledger_entry === ledgerEntryId) return { id: made.id };
        return null;
      } catch (error) {
        return mapError(error);
      }
    },
    findReversal: async ({ ledgerEntryId, transferId }) => {
      try {
        for await (const made of stripe.transfers.listReversals(transferId, { limit: 100 }))
          if (made.metadata?.ledger_entry === ledgerEntryId) return { id: made.id };
        return null;
      } catch (error) {
        return mapError(error);
      }
    },
    reverseTransfer: async ({ idempotencyKey, transferId, amountCents, metadata }) => {
      try {
        const reversal = await stripe.transfers.createReversal(
          transferId,
          { amount: amountCents, metadata },
          { idempotencyKey },
        );
        return { id: reversal.id, amountCents: reversal.amount };
      } catch (error) {
        return mapTransferError(error);
      }
    },
    retrieve: async (input) => {
      try {
        if ("paymentId" in input) return await retrieveIntent(input.paymentId);
        const found = await stripe.paymentIntents.search({
          query: `metadata['authorize_key']:'${input.authorizeKey}'`,
          limit: 1,
        });
        return found.data[0] ? toPayment(found.data[0]) : null;
      } catch (error) {
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === "resource_missing"
        )
          return null;
        return mapError(error);
      }
    },
    startCardSetup: async ({ idempotencyKey, customerId, email, metadata }) => {
      try {
        const customer =
          customerId ??
          (
            await stripe.customers.create(
              { email, metadata },
              { idempotencyKey: `${idempotencyKey}:customer` },
            )
          ).id;
        // Not confirmed here: the page confirms it with Stripe.js (the Payment Element in setup mode).
        const setup = await stripe.setupIntents.create(
          {
            customer,
            usage: "off_session",
            automatic_payment_methods: { enabled: true },
            metadata,
          },
          { idempotencyKey },
        );
        if (!setup.client_secret)
          throw new Error(`stripe processor: SetupIntent ${setup.id} came without a client_secret`);
        return { customerId: customer, setupId: setup.id, clientSecret: setup.client_secret };
      } catch (error) {
        mapError(error);
        throw error;
      }
    },
    retrieveCardSetup: async ({ setupId }) => {
      try {
        const setup = await stripe.setupIntents.retrieve(setupId);
        const methodId =
          typeof setup.payment_method === "string"
            ? setup.payment_method
            : (setup.payment_method?.id ?? null);
        const method =
          setup.status === "succeeded" && methodId
            ? await stripe.paymentMethods.retrieve(methodId)
            : null;
        // A card detached since (replaced or removed by the person) is not one to save again: a late webhook of an older setup changes nothing.
        const isAttached = Boolean(method?.customer);
        const status =
          setup.status === "succeeded"
            ? "succeeded"
            : setup.status === "canceled" || setup.last_setup_error
              ? "failed"
              : "awaiting";
        return {
          id: setup.id,
          status,
          customerId:
            typeof setup.customer === "string" ? setup.customer : (setup.customer?.id ?? null),
          metadata: setup.metadata ?? {},
          card:
            method?.card && isAttached
              ? {
                  paymentMethodId: method.id,
                  brand: method.card.brand,
                  last4: method.card.last4,
                  expMonth: method.card.exp_month,
                  expYear: method.card.exp_year,
                }
              : null,
        };
      } catch (error) {
        return missingAsNull(error);
      }
    },
    transfer: async ({
      idempotencyKey,
      destination,
      amountCents,
      sourcePaymentId,
      transferGroup,
      metadata,
    }) => {
      try {
        // The transfer is tied to the captured charge (source_transaction), which the PaymentIntent names.
        const intent = sourcePaymentId
          ? await stripe.paymentIntents.retrieve(sourcePaymentId)
          : null;
        const charge =
          typeof intent?.latest_charge === "string"
            ? intent.latest_charge
            : intent?.latest_charge?.id;
        if (sourcePaymentId && !charge)
          throw new Error(`stripe processor: ${sourcePaymentId} has no charge`);
        const made = await stripe.transfers.create(
          {
            amount: amountCents,
            currency: "cad",
            destination,
            ...(charge ? { source_transaction: charge } : {}),
            transfer_group: transferGroup,
            metadata,
          },
          { idempotencyKey },
        );
        const to = typeof made.destination === "string" ? made.destination : made.destination?.id;
        return { id: made.id, destination: to ?? destination, amountCents: made.amount };
      } catch (error) {
        return mapTransferError(error);
      }
    },
    listBalanceTransactions: async ({ from, to }) => {
      const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
      const listed: BalanceTransaction[] = [];
      try {
        // Every page (auto-pagination), each with its source, whose ids we recorded.
        for await (const transaction of stripe.balanceTransactions.list({
          created: { gte: seconds(from), lt: seconds(to) },
          limit: 100,
          expand: ["data.source"],
        }))
          listed.push(toBalanceTransaction(transaction));
      } catch (error) {
        mapError(error);
        throw error;
      }
      return listed;
    },
    retrieveDispute: async ({ disputeId }) => {
      try {
        const dispute = await stripe.disputes.retrieve(disputeId);
        const intent = dispute.payment_intent;
        return {
          id: dispute.id,
          paymentId: (typeof intent === "string" ? intent : intent?.id) ?? "",
          amountCents: dispute.amount,
          reason: dispute.reason,
          status: dispute.status,
          evidenceDueBy: dispute.evidence_details?.due_by
            ? new Date(dispute.evidence_details.due_by * 1000)
            : null,
        };
      } catch (error) {
        return missingAsNull(error);
      }
    },
    retrieveAccount: async ({ accountId }) => {
      try {
        const account = await stripe.accounts.retrieve(accountId);
        return {
          id: account.id,
          canReceiveTransfers: account.capabilities?.transfers === "active",
        };
      } catch (error) {
        return missingAsNull(error);
      }
    },
    detachMethod: async ({ paymentMethodId }) => {
      try {
        await stripe.paymentMethods.detach(paymentMethodId);
      } catch (error) {
        // Already detached, or gone: what we wanted.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        mapError(error);
        throw error;
      }
    },
    saveMethod: async ({ idempotencyKey, card, customerId, email }) => {
      try {
        const customer =
          customerId ??
          (
            await stripe.customers.create(
              { ...(email ? { email } : {}) },
              { idempotencyKey: `${idempotencyKey}:customer` },
            )
          ).id;
        const setup = await stripe.setupIntents.create(
          {
            customer,
            payment_method: cardPaymentMethod(card),
            confirm: true,
            usage: "off_session",
            automatic_payment_methods: noRedirects,
          },
          { idempotencyKey },
        );
        if (setup.status !== "succeeded" || !setup.payment_method)
          throw new Error(`stripe processor: the card was not saved (${setup.status})`);
        const paymentMethodId =
          typeof setup.payment_method === "string" ? setup.payment_method : setup.payment_method.id;
        return { customerId: customer, paymentMethodId, cardLast4: card.number.slice(-4) };
      } catch (error) {
        mapError(error);
        throw error;
      }
    },
  };
};
