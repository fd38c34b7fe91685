/**
 * The payment processor interface. A payment belongs to a checkout (one row per attempt) or to an
 * assistant purchase (one payment). Every call carries an idempotency key derived from the owner
 * (`chk_x:1:authorize`, `pur_x:authorize`, `pur_x:capture`), so a retried step gets the first
 * answer and never a second hold or charge. Money is held first (manual capture) and captured only
 * once the owner is settled; a hold nobody captures lapses at the processor, uncharged.
 *
 * An unknown outcome (a timeout, a lost connection, a 5xx) throws `UnknownOutcomeError`: the hold
 * may exist. It is reconciled with `retrieve` (by the processor id, or by the authorize key when
 * the id never reached us), never by a second authorize.
 */
export type PaymentMethod =
  | { type: "card"; number: string; expMonth: number; expYear: number; cvc: string }
  /** The "Link" wallet: the person's saved card at the processor, found by their email. */
  | { type: "link"; email: string }
  /** A card saved earlier (`saveMethod`), charged off-session: the person is not there. */
  | { type: "saved"; customerId: string; paymentMethodId: string };

type ProcessorPaymentStatus = "requires_action" | "authorized" | "captured" | "declined" | "voided";

export type ProcessorPayment = {
  id: string;
  status: ProcessorPaymentStatus;
  amountCents: number;
  cardLast4: string | null;
  /** Why the bank declined, in the processor's words (card_declined, authentication_failed, …). */
  declineCode: string | null;
  /** Refunded so far, of a captured payment. */
  refundedCents?: number;
};

/** A payment the person completes in the browser with the processor's own form: its id, and the secret only that page gets. */
type OpenIntent = { id: string; clientSecret: string };

type SavedMethod = { customerId: string; paymentMethodId: string; cardLast4: string };

/** A card saved in the browser with the processor's own form (a SetupIntent), as the processor reports it. */
type CardSetup = {
  id: string;
  /** succeeded: the card is saved on the customer; awaiting: the person has not finished; failed: refused or cancelled. */
  status: "succeeded" | "awaiting" | "failed";
  customerId: string | null;
  metadata: Record<string, string>;
  card: {
    paymentMethodId: string;
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
  } | null;
};

/** A refund as the processor lists it; `metadata.refund` is our refund's id when we asked for it. */
export type ProcessorRefund = {
  id: string;
  amountCents: number;
  /** `failed` also after `succeeded`: the bank sent the money back (a closed card), to the platform's balance. */
  status: "succeeded" | "pending" | "failed";
  /** Why it failed, in the processor's words (`expired_or_canceled_card`), when it did. */
  failureReason: string | null;
  metadata: Record<string, string>;
};

/**
 * One movement of the platform's balance at the processor, as the daily reconciliation reads it
 * (docs/adr/0108): `objectId` is what we record of it: the PaymentIntent of a charge, the refund,
 * the transfer or the transfer reversal, the dispute (`<id>` for the money it took, `<id>:reinstated`
 * for the money a won dispute gave back). Amounts are as the processor signs them (a charge and a
 * reversal add, a refund and a transfer take away).
 */
export type BalanceTransaction = {
  id: string;
  type: "charge" | "refund" | "transfer" | "transfer_reversal" | "dispute" | "other";
  objectId: string;
  amountCents: number;
  createdAt: Date;
};

/** A dispute (chargeback) as the processor reports it now. */
export type ProcessorDispute = {
  id: string;
  /** The disputed payment (a PaymentIntent at Stripe). */
  paymentId: string;
  amountCents: number;
  reason: string;
  /** needs_response, under_review, won, lost; warning_needs_response, warning_under_review, warning_closed for inquiries. */
  status: string;
  evidenceDueBy: Date | null;
};

/** A store's share sent to its connected account (a Stripe Transfer: docs/adr/0106). */
export type ProcessorTransfer = { id: string; destination: string; amountCents: number };

/** A store's connected account as the processor reports it. */
type ConnectedAccount = { id: string; canReceiveTransfers: boolean };

export type PaymentProvider = {
  name: "sandbox" | "stripe";
  /** How long after an authorize `retrieve` by key may still miss the payment (Stripe's search index lags); after that, "not found" means it never existed. */
  lookupLagMs: number;
  /** Places a hold of `amountCents` CAD; an on-session card may need the person's authentication first (requires_action). */
  authorize: (input: {
    idempotencyKey: string;
    amountCents: number;
    method: PaymentMethod;
    description: string;
  }) => Promise<ProcessorPayment>;
  /**
   * Opens an on-session payment that the person confirms in the browser with the processor's own
   * form (Stripe's Payment Element: card, Link, 3-D Secure), so the card never reaches us: a hold
   * of `amountCents` once confirmed (manual capture), found again by its id or the authorize key.
   * The sandbox has no such form (its page takes test cards) and refuses.
   */
  createIntent: (input: {
    idempotencyKey: string;
    amountCents: number;
    description: string;
    metadata: Record<string, string>;
  }) => Promise<OpenIntent>;
  /** Records the outcome of the person's authentication step (3-D Secure) for a requires_action payment. */
  confirm: (input: {
    idempotencyKey: string;
    paymentId: string;
    authenticated: boolean;
  }) => Promise<ProcessorPayment>;
  /** Charges a held payment. */
  capture: (input: { idempotencyKey: string; paymentId: string }) => Promise<ProcessorPayment>;
  /** Releases a hold (or abandons an authentication step); nothing is charged. */
  release: (input: { idempotencyKey: string; paymentId: string }) => Promise<ProcessorPayment>;
  /**
   * Gives back `amountCents` of a captured payment (all of it when omitted); `metadata` names our
   * refund, so a refund the processor reports later (its webhook, reconciliation) is known as ours.
   * `refundStatus` is the refund's as made: a card refund is usually `succeeded` at once, but one
   * may stay `pending` at the bank and end `failed` (listRefunds tells which, later).
   */
  refund: (input: {
    idempotencyKey: string;
    paymentId: string;
    amountCents?: number;
    metadata?: Record<string, string>;
  }) => Promise<ProcessorPayment & { refundId: string; refundStatus: ProcessorRefund["status"] }>;
  /** The refunds of a captured payment, as the processor lists them (its own and any made in its dashboard). */
  listRefunds: (input: { paymentId: string }) => Promise<ProcessorRefund[]>;
  /** The payment as the processor sees it now, by its id or by the key of the authorize that made it; null if it never existed. */
  retrieve: (
    input: { paymentId: string } | { authorizeKey: string },
  ) => Promise<ProcessorPayment | null>;
  /**
   * Opens the saving of a card that the person enters in the browser with the processor's own
   * form (a SetupIntent with `usage: off_session` for the customer, made first when `customerId`
   * is absent). The sandbox has no such form and refuses.
   */
  startCardSetup: (input: {
    idempotencyKey: string;
    customerId?: string;
    email: string;
    metadata: Record<string, string>;
  }) => Promise<{ customerId: string; setupId: string; clientSecret: string }>;
  /** A card setup as the processor sees it now (null if it does not exist). */
  retrieveCardSetup: (input: { setupId: string }) => Promise<CardSetup | null>;
  /**
   * Sends `amountCents` of a captured payment to a store's connected account (separate charges
   * and transfers): tied to the payment's charge (`source_transaction`), so it never draws on
   * funds the charge has not brought, and grouped under our checkout or purchase id.
   */
  transfer: (input: {
    idempotencyKey: string;
    destination: string;
    amountCents: number;
    /** The captured payment whose charge funds it; omitted when the platform's balance does (a won dispute's share). */
    sourcePaymentId?: string;
    transferGroup: string;
    metadata: Record<string, string>;
  }) => Promise<ProcessorTransfer>;
  /**
   * What the processor made for our ledger row (`metadata.ledger_entry`): its transfer in the
   * group, or its reversal of `transferId`; null when none. Asked before a transfer or a reversal is
   * tried again: under a key the processor has forgotten (Stripe keeps one a day) a try would make
   * a second.
   */
  findTransfer: (input: {
    ledgerEntryId: string;
    transferGroup: string;
  }) => Promise<{ id: string } | null>;
  findReversal: (input: {
    ledgerEntryId: string;
    transferId: string;
  }) => Promise<{ id: string } | null>;
  /** Takes back `amountCents` of a transfer from the store's connected account (a refund's or a dispute's share). */
  reverseTransfer: (input: {
    idempotencyKey: string;
    transferId: string;
    amountCents: number;
    metadata: Record<string, string>;
  }) => Promise<{ id: string; amountCents: number }>;
  /** A dispute by its id (null if the processor has none). */
  retrieveDispute: (input: { disputeId: string }) => Promise<ProcessorDispute | null>;
  /** The balance transactions created in [from, to), every page. */
  listBalanceTransactions: (input: { from: Date; to: Date }) => Promise<BalanceTransaction[]>;
  /** A connected account (null if the processor has none by that id). */
  retrieveAccount: (input: { accountId: string }) => Promise<ConnectedAccount | null>;
  /** Detaches a saved payment method from its customer (a replaced or removed card); one already detached or gone is fine. */
  detachMethod: (input: { paymentMethodId: string }) => Promise<void>;
  /** Saves a card for off-session use (a SetupIntent at Stripe), for a new or an existing customer. */
  saveMethod: (input: {
    idempotencyKey: string;
    card: Extract<PaymentMethod, { type: "card" }>;
    customerId?: string;
    email?: string;
  }) => Promise<SavedMethod>;
};

/** The processor may or may not have done what was asked (timeout, lost connection, 5xx): reconcile with `retrieve`. */
export class UnknownOutcomeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UnknownOutcomeError";
  }
}

export const isUnknownOutcome = (error: unknown): error is UnknownOutcomeError =>
  error instanceof UnknownOutcomeError;

/**
 * Why the processor refused a request itself, before any bank saw it: `payment_method_not_found`
 * (the saved card is no longer on the customer: detached, or the customer deleted) or
 * `processor_refused` (our side: a rolled or invalid key, a key without the permission, a request
 * or idempotency key it rejects).
 */
export type ProcessorRefusal = "payment_method_not_found" | "processor_refused";

/** The processor refused to create the payment (review M4): nothing was created, so nothing is held. Not an unknown outcome: no lookup, no reconciliation. */
export class ProcessorRefusedError extends Error {
  readonly reason: ProcessorRefusal;
  constructor(reason: ProcessorRefusal, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProcessorRefusedError";
    this.reason = reason;
  }
}

export const isProcessorRefusal = (error: unknown): error is ProcessorRefusedError =>
  error instanceof ProcessorRefusedError;

/** Who a payment belongs to: an attempt at a checkout, or an assistant purchase (one payment). */
export type PaymentOwner =
  { kind: "checkout"; id: string; attempt: number } | { kind: "purchase"; id: string };

export type ProcessorOperation = "authorize" | "confirm" | "capture" | "release" | "refund";

/** The key of a store's transfer from a payment: one per payment and store, ever. */
export const transferKey = (paymentId: string, storeId: number) =>
  `${paymentId}:transfer:${storeId}`;

/** The key of a processor call, derived from our ids so a retry reuses it: `chk_x:1:authorize`, `pur_x:capture`. */
export const processorKey = (owner: PaymentOwner, operation: ProcessorOperation) =>
  owner.kind === "checkout"
    ? `${owner.id}:${owner.attempt}:${operation}`
    : `${owner.id}:${operation}`;

/** The owner of a payment row (exactly one of checkout_id and purchase_id is set). */
export const ownerOf = (payment: {
  checkoutId: string | null;
  purchaseId?: string | null;
  attempt: number;
}): PaymentOwner =>
  payment.checkoutId
    ? { kind: "checkout", id: payment.checkoutId, attempt: payment.attempt }
    : { kind: "purchase", id: payment.purchaseId! };
