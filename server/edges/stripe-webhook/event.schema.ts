/**
 * What the webhook reads of a verified Stripe event: its id, type and time, and the ids of the
 * object it is about. Nothing else of the payload is used: the state is asked of Stripe's API.
 */
import { z } from "zod";

const ZExpandable = z.union([z.string(), z.object({ id: z.string() })]);

export const ZStripeEvent = z.object({
  id: z.string().startsWith("evt_"),
  type: z.string().min(1).max(100),
  created: z.number().int().nonnegative(),
  data: z.object({
    object: z.object({
      id: z.string().min(1).max(255),
      /** A PaymentIntent's own metadata: the key of the authorize that made it (server/payments/stripe.ts). */
      metadata: z.record(z.string(), z.string()).nullish(),
      /** A Charge's, a Refund's or a Dispute's PaymentIntent. */
      payment_intent: ZExpandable.nullish(),
    }),
  }),
});

export type TStripeEvent = z.infer<typeof ZStripeEvent>;

/** The id of an expandable field (a string, or the expanded object). */
export const idOf = (value: z.infer<typeof ZExpandable> | null | undefined) =>
  value ? (typeof value === "string" ? value : value.id) : null;
