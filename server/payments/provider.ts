/**
 * The payment processor interface. Every call carries an idempotency key derived from our own ids
 * (`<checkout id>:<attempt>:authorize`, `…:capture`, `…:cancel`), so a retried step gets the first
 * answer and never a second hold or charge. Payments are authorised (a hold) and captured only
 * after the orders are placed; a hold nobody captures lapses at the processor, so a crash between
 * the two can never charge anyone. Assistant purchases (a later issue) use the same three calls
 * with a 24-hour gap between hold and capture.
 */
export type PaymentMethod =
  | { type: "card"; number: string; expMonth: number; expYear: number; cvc: string }
  /** The "Link" wallet: the person's saved card at the processor, found by their email. */
  | { type: "link"; email: string };

export type ProcessorPaymentStatus = "requires_action" | "authorized" | "captured" | "declined" | "voided";

export type ProcessorPayment = {
  id: string;
  status: ProcessorPaymentStatus;
  amountCents: number;
  cardLast4: string | null;
  /** Why the bank declined, in the processor's words (card_declined, authentication_failed, …). */
  declineCode: string | null;
};

export type PaymentProvider = {
  name: string;
  /** Places a hold of `amountCents` CAD; may need the person's authentication first (requires_action). */
  authorize: (input: { idempotencyKey: string; amountCents: number; method: PaymentMethod; description: string }) => Promise<ProcessorPayment>;
  /** Records the outcome of the person's authentication step (3-D Secure) for a requires_action payment. */
  confirm: (input: { idempotencyKey: string; paymentId: string; authenticated: boolean }) => Promise<ProcessorPayment>;
  /** Charges a held payment. */
  capture: (input: { idempotencyKey: string; paymentId: string }) => Promise<ProcessorPayment>;
  /** Releases a hold; nothing is charged. */
  cancel: (input: { idempotencyKey: string; paymentId: string }) => Promise<ProcessorPayment>;
};

/** Keys for processor calls, derived from our ids so a retry reuses them. */
export const processorKey = (paymentAttempt: { checkoutId: string; attempt: number }, operation: "authorize" | "confirm" | "capture" | "cancel") =>
  `${paymentAttempt.checkoutId}:${paymentAttempt.attempt}:${operation}`;
