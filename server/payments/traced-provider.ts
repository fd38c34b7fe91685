/**
 * The processor in use, each call in its own span when tracing is on (docs/adr/0113-traces.md):
 * `processor.authorize`, `processor.capture`… under the procedure or job that asked, with the ids
 * that find the payment again (our idempotency key, which names the checkout or purchase, and the
 * processor's payment id) and the amount. Never the payment method: a card number, its CVC or a
 * person's email must not reach a trace.
 */
import type { Attributes } from "@opentelemetry/api";
import { inSpan, isTracing } from "../platform/observability/tracing";
import type { PaymentProvider } from "./provider";

/** The inputs that may go on a span, each under its attribute name; everything else stays off. */
const recorded: Record<string, string> = {
  idempotencyKey: "shopping.idempotency_key",
  paymentId: "shopping.payment_id",
  authorizeKey: "shopping.idempotency_key",
  amountCents: "shopping.amount_cents",
  transferId: "shopping.transfer_id",
  disputeId: "shopping.dispute_id",
  accountId: "shopping.account_id",
};

const attributesOf = (provider: PaymentProvider, input: unknown): Attributes => {
  const attributes: Attributes = { "shopping.processor": provider.name };
  if (typeof input !== "object" || input === null) return attributes;
  for (const [key, value] of Object.entries(input)) {
    const name = recorded[key];
    if (name && (typeof value === "string" || typeof value === "number")) attributes[name] = value;
  }
  return attributes;
};

const traced = new WeakMap<PaymentProvider, PaymentProvider>();

/** `provider` itself when tracing is off; otherwise the same provider with a span around each call. */
export const withProcessorSpans = (provider: PaymentProvider): PaymentProvider => {
  if (!isTracing()) return provider;
  const known = traced.get(provider);
  if (known) return known;
  const wrapped = Object.fromEntries(
    Object.entries(provider).map(([name, member]) => [
      name,
      typeof member === "function"
        ? (input: unknown) =>
            inSpan(`processor.${name}`, attributesOf(provider, input), () =>
              (member as (input: unknown) => Promise<unknown>).call(provider, input),
            )
        : member,
    ]),
  ) as PaymentProvider;
  traced.set(provider, wrapped);
  return wrapped;
};
