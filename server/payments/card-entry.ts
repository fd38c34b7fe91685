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
import { isTestCard, testCards } from "./sandbox-cards";

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

/**
 * Refuses, before anything is counted, opened or sent, a method our server cannot hand to the
 * configured processor: in production any card number (403, as above); with Stripe outside
 * production a number other than the test cards (our server may send Stripe only its test payment
 * methods) and Link (confirmed only in Stripe's own form on the page): 422 naming the field. The
 * sandbox takes every number (a real one is declined there, as Stripe's test mode declines it).
 */
export const refuseMethodTheProcessorCannotTake = (
  method: { type: "card"; number: string } | { type: "link" },
  message: string,
) => {
  if (method.type === "card") refuseCardNumberInProduction(message);
  if (env().PAYMENT_PROCESSOR !== "stripe") return;
  if (method.type === "link")
    throw new AppError("invalid_request", {
      fields: { "method.type": "link is paid in Stripe's own form on the checkout page" },
    });
  if (!isTestCard(method.number))
    throw new AppError("invalid_request", {
      fields: {
        "method.number":
          "is not a test card: with Stripe, cards are entered in Stripe's own form on the checkout page",
      },
    });
  refuseAuthenticationWithStripe(method.number, "method.number");
};

/**
 * With Stripe, a card that asks for 3-D Secure (test card 4000 0025 0000 3155) is authenticated only
 * in Stripe's own form, in the person's browser. Posted to us, Stripe would wait for an
 * authentication no one can give: the sandbox's approve step would report it declined, and a saved
 * card's setup would fail. 422 naming `field`, before anything is opened.
 */
export const refuseAuthenticationWithStripe = (number: string, field: string) => {
  if (env().PAYMENT_PROCESSOR !== "stripe" || number !== testCards.requiresAuthentication) return;
  throw new AppError("invalid_request", {
    fields: {
      [field]:
        "asks for 3-D Secure, which Stripe completes only in its own form on the page: enter it there, or use 4242 4242 4242 4242",
    },
  });
};
