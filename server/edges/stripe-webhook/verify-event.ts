/**
 * Verifies a Stripe webhook delivery with the `stripe` package: the `Stripe-Signature` header is
 * an HMAC of the raw bytes (never a re-serialised body) under the endpoint's signing secret, with
 * a timestamp at most 5 minutes old (Stripe's default tolerance, judged by our clock). While Stripe
 * rolls the secret both the current and the previous one are accepted.
 */
import Stripe from "stripe";
import { AppError } from "../../core/errors";
import { type TStripeEvent, ZStripeEvent } from "./event.schema";

const refused = (message: string) => new AppError("bad_request", { message });

/** The event, verified and parsed; throws a 400 AppError when no configured secret signed these bytes. */
export const verifyStripeEvent = (options: {
  body: Uint8Array;
  signature: string | null;
  secrets: (string | undefined)[];
  now: Date;
}): TStripeEvent => {
  const secrets = options.secrets.filter((secret): secret is string => Boolean(secret));
  if (!secrets.length)
    throw refused("Stripe webhooks are not configured here (no signing secret).");
  if (!options.signature) throw refused("The Stripe-Signature header is missing.");
  let event: unknown;
  for (const secret of secrets) {
    try {
      event = Stripe.webhooks.constructEvent(
        Buffer.from(options.body),
        options.signature,
        secret,
        undefined,
        undefined,
        options.now.getTime(),
      );
      break;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError))
        throw refused("The body is not a Stripe event.");
    }
  }
  if (!event)
    throw refused(
      "The Stripe-Signature header does not match this body under the endpoint's signing secret, or it is too old.",
    );
  const parsed = ZStripeEvent.safeParse(event);
  if (!parsed.success) throw refused("The body is not a Stripe event.");
  return parsed.data;
};
