/** Named Prisma selects. */
import type { Prisma } from "../generated/prisma/client";

/** What pricing reads of an item is the catalogue's (its store: server/catalogue/store/stock.ts). */
export { loadQuotableItems } from "../catalogue";
export type { QuotableItem } from "../catalogue";

export const checkoutSelect = {
  id: true,
  clientId: true,
  personId: true,
  email: true,
  status: true,
  selections: true,
  expiresAt: true,
  orderNumber: true,
  closedReason: true,
  subtotalCents: true,
  discountCents: true,
  shippingCents: true,
  taxCents: true,
  grandTotalCents: true,
  createdAt: true,
  paidAt: true,
  quote: { select: { snapshot: true, address: true } },
} satisfies Prisma.CheckoutSelect;

export type CheckoutRow = Prisma.CheckoutGetPayload<{ select: typeof checkoutSelect }>;
