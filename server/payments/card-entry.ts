/**
 * Where a card number may be typed, the one rule for the card forms of this service (saving a card,
 * paying a checkout): in the sandbox our own forms take the test cards; in production only the
 * processor's own form (Stripe.js: the Payment Element) ever sees a card number, so no request of
 * ours carries one (PCI DSS SAQ-A; RELIABILITY B6-01). With Stripe outside production the pages use
 * Stripe's form too, and the server still takes the test numbers, which it maps to Stripe's test
 * payment methods (stripe.ts).
 */
import { AppError } from "../core/errors";
import { env } from "../platform/env";

export type CardEntry = "processor_form" | "sandbox_test_cards";

/** How the pages take a card: the processor's form (always in production) or the sandbox's test-card form. */
export const cardEntry = (): CardEntry =>
  env().SERVICE_ENV === "production" || env().PAYMENT_PROCESSOR === "stripe"
    ? "processor_form"
    : "sandbox_test_cards";

/**
 * Refuses a request carrying a card number in production (403 forbidden, with `message` telling the
 * person where to enter the card instead), before anything is written or sent.
 */
export const refuseCardNumberInProduction = (message: string) => {
  if (env().SERVICE_ENV !== "production") return;
  throw new AppError("forbidden", {
    message: `${message} This service never accepts a card number directly in production.`,
  });
};
