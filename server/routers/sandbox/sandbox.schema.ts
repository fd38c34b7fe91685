/** Schemas of the sandbox helpers (POST /sandbox/orders/{order}/ship, POST /sandbox/checkouts/{checkout_id}/expire). */
import { z } from "zod";
import { optional } from "../shared/zod";


export const ZShipOrderParams = z.object({ order: z.string().min(1).max(40, "must be at most 40 characters") });

const ZShipOrderFields = z
  .object({
    carrier: optional(z.string().trim().min(1).max(60)).meta({ description: "Default Canada Post" }),
    tracking_number: optional(z.string().trim().regex(/^[A-Za-z0-9 -]{4,40}$/, "must be 4 to 40 letters, digits, spaces or dashes")).meta({ description: "Default: a generated number" }),
  })
  .strict();

/** The body is optional: no body ships with the defaults. */
export const ZShipOrderBody = ZShipOrderFields.optional().transform((value) => value ?? {});

export const ZShipOrderInput = ZShipOrderParams.extend(ZShipOrderFields.shape);

/** POST /sandbox/purchases/{purchase_id}/advance and /resolve. */
export const ZPurchaseIdParams = z.object({ purchase_id: z.string().min(1).max(64, "must be at most 64 characters") });

export const ZResolvePurchaseBody = z
  .object({ outcome: z.enum(["authorized", "declined"]).meta({ description: "The bank's late answer: authorized (the purchase becomes held) or declined (requires_person)" }) })
  .strict();

export const ZResolvePurchaseInput = ZPurchaseIdParams.extend(ZResolvePurchaseBody.shape);

/**
 * What the purchase helpers answer: the purchase's id, public status and times, until the
 * Purchase serializer of GET /purchases/{purchase_id} lands (then they answer that shape).
 */
export const ZSandboxPurchase = z
  .object({
    purchase_id: z.string(),
    status: z.enum(["held", "paid", "processing", "requires_person", "refused", "cancelled", "refunded"]),
    order_number: z.string().nullable(),
    charges_at: z.iso.datetime().nullable().meta({ description: "While held, when the card will be charged; null once charged or closed" }),
    cancel_until: z.iso.datetime(),
    error: z.object({ code: z.string() }).nullable().meta({ description: "Why it was refused, cancelled by the service or needs the person" }),
  })
  .meta({ id: "SandboxPurchase" });
export type TSandboxPurchase = z.infer<typeof ZSandboxPurchase>;
