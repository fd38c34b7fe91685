/** Named Prisma selects of the catalogue (which stores list their items: server/core/store-can-sell.ts). */
import type { Prisma } from "../generated/prisma/client";

export const productSummarySelect = {
  id: true,
  title: true,
  brand: true,
  priceCents: true,
  condition: true,
  url: true,
  sizes: true,
  category: { select: { path: true } },
  store: { select: { slug: true, name: true, url: true, agentCheckout: true } },
  images: { where: { isCover: true }, select: { url: true }, take: 1 },
  variants: { select: { quantity: true } },
} satisfies Prisma.ItemSelect;

export type ProductSummaryRow = Prisma.ItemGetPayload<{ select: typeof productSummarySelect }>;

export const productDetailSelect = {
  ...productSummarySelect,
  description: true,
  createdAt: true,
  images: { select: { url: true, isCover: true }, orderBy: { position: "asc" } },
  variants: {
    select: { id: true, size: true, color: true, quantity: true },
    orderBy: { id: "asc" },
  },
} satisfies Prisma.ItemSelect;

export type ProductDetailRow = Prisma.ItemGetPayload<{ select: typeof productDetailSelect }>;
