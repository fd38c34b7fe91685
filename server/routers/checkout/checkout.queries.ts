/** Named Prisma selects for quotes and checkouts. */
import type { Prisma } from "../../generated/prisma/client";

/** Everything pricing needs about a requested item, in one query (store, rates, variants, cover). */
export const quotableItemSelect = {
  id: true,
  title: true,
  priceCents: true,
  status: true,
  url: true,
  store: {
    select: {
      id: true, slug: true, name: true, url: true, agentCheckout: true, isOpen: true, canTakePayment: true, canShip: true, freeShippingThresholdCents: true,
      shippingRates: { select: { key: true, label: true, baseCents: true, perItemCents: true, remoteSurchargeCents: true, minDays: true, maxDays: true } },
    },
  },
  variants: { select: { id: true, size: true, sizeKey: true, color: true, quantity: true }, orderBy: { id: "asc" } },
  images: { where: { isCover: true }, select: { url: true }, take: 1 },
} satisfies Prisma.ItemSelect;

export type QuotableItem = Prisma.ItemGetPayload<{ select: typeof quotableItemSelect }>;

export const checkoutSelect = {
  id: true, clientId: true, personId: true, email: true, status: true, selections: true, expiresAt: true, orderNumber: true, closedReason: true,
  subtotalCents: true, discountCents: true, shippingCents: true, taxCents: true, grandTotalCents: true, createdAt: true, paidAt: true,
  quote: { select: { snapshot: true, address: true } },
} satisfies Prisma.CheckoutSelect;

export type CheckoutRow = Prisma.CheckoutGetPayload<{ select: typeof checkoutSelect }>;
