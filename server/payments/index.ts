/**
 * The processor in use, chosen in this one place from the configuration: the sandbox (test cards,
 * its ledger in the sandbox_* tables) or Stripe. Production never runs the sandbox (server/platform/env.ts).
 */
import { env } from "../platform/env";
import { stripeClientSettings } from "./processor-budget";
import type { PaymentProvider } from "./provider";
import { sandboxProvider } from "./sandbox";
import { stripeProvider } from "./stripe";
import { defaultStripePace } from "./stripe-pace";
import { withProcessorSpans } from "./traced-provider";

let stripe: { key: string; provider: PaymentProvider } | undefined;
/** The sandbox provider holds no state (its ledger is in the database): one per process, so its traced wrapper is made once too. */
let sandbox: PaymentProvider | undefined;

export const paymentProvider = (): PaymentProvider => withProcessorSpans(chosenProvider());

const chosenProvider = (): PaymentProvider => {
  const config = env();
  if (config.PAYMENT_PROCESSOR === "sandbox") return (sandbox ??= sandboxProvider());
  if (!config.STRIPE_SECRET_KEY)
    throw new Error(
      "Invalid configuration:\n  STRIPE_SECRET_KEY: required when PAYMENT_PROCESSOR is stripe",
    );
  const defaults = defaultStripePace(config.STRIPE_SECRET_KEY);
  const pace = {
    accountPerSecond: config.STRIPE_REQUESTS_PER_SECOND ?? defaults.accountPerSecond,
    endpointPerSecond: config.STRIPE_ENDPOINT_REQUESTS_PER_SECOND ?? defaults.endpointPerSecond,
    maxWaitMs: stripeClientSettings.paceWaitMs,
    redisUrl: config.REDIS_URL,
    prefix: `${process.env.RATE_LIMIT_PREFIX ?? "rl"}:stripe`,
  };
  // One Stripe client per process (it keeps its connections and its pace); rebuilt only if its settings change.
  const key = JSON.stringify([config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE, pace]);
  if (stripe?.key !== key)
    stripe = {
      key,
      provider: stripeProvider({
        secretKey: config.STRIPE_SECRET_KEY,
        apiBase: config.STRIPE_API_BASE,
        pace,
      }),
    };
  return stripe.provider;
};
export {
  attemptTimeoutMs,
  authorizePayment,
  releaseDuePayments,
  releaseOrRetryLater,
  retryReleaseLater,
  capturePayment,
  confirmPayment,
  isCaptureFailed,
  lookUpAuthorize,
  releasePayment,
} from "./payment-steps";
export {
  captureDueWhere,
  findPaymentOfIntent,
  listFailedCaptures,
  openPayment,
  recordCapturedByProcessor,
  recordVoidedByProcessor,
} from "./store/payments";
// An assistant purchase's payment, for purchases (ADR 0103).
export {
  findPaymentOfPurchase,
  listHoldsOfClosedPurchases,
  readPaymentOutcomeOfPurchase,
  recordAuthorizedHold,
  recordAuthorizeLookup,
  recordAuthorizeNeedsAction,
  recordDeclinedAuthorize,
  recordRefusedAuthorize,
} from "./store/payments";
export type { PaymentOfIntent } from "./store/payments";
export { declinePendingAuthorize } from "./store/sandbox-ledger";
export type { AuthorizeResult, CaptureOutcome, HeldPayment } from "./payment-steps";
export {
  isProcessorRefusal,
  isUnknownOutcome,
  ownerOf,
  processorKey,
  transferKey,
} from "./provider";
export type {
  ProcessorDispute,
  PaymentMethod,
  PaymentOwner,
  PaymentProvider,
  ProcessorPayment,
  ProcessorRefund,
  ProcessorRefusal,
} from "./provider";
export { isLuhnValid, isTestCard, testCards } from "./sandbox-cards";
export {
  cardEntry,
  refuseCardNumberInProduction,
  refuseAuthenticationWithStripe,
  refuseMethodTheProcessorCannotTake,
} from "./card-entry";
export {
  closeLedgerDispute,
  openLedgerDispute,
  sendBackLedgerRefund,
} from "./store/sandbox-ledger";
