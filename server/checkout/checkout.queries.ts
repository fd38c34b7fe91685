/** Named Prisma selects and the quote's hot-path query. */
import { anyOf, type Sql } from "../platform/sql";
import { Prisma } from "../generated/prisma/client";

/** What pricing needs about a requested item: its store with rates, its variants and cover. */
export type QuotableItem = {
  id: number;
  title: string;
  priceCents: number;
  status: "active" | "sold" | "removed";
  url: string;
  store: {
    id: number;
    slug: string;
    name: string;
    url: string;
    agentCheckout: "link" | "direct";
    isOpen: boolean;
    canTakePayment: boolean;
    canShip: boolean;
    freeShippingThresholdCents: number | null;
    shippingRates: {
      key: string;
      label: string;
      baseCents: number;
      perItemCents: number;
      remoteSurchargeCents: number;
      minDays: number;
      maxDays: number;
    }[];
  };
  variants: {
    id: number;
    size: string | null;
    sizeKey: string | null;
    color: string | null;
    quantity: number;
  }[];
  images: { url: string }[];
};

/**
 * Loads the requested items in the QuotableItem shape with one statement: Prisma's nested select
 * costs a round trip per relation (about 5 ms here), this about one (PERFORMANCE.md, quote p50 8 ms).
 */
export const loadQuotableItems = (sql: Sql, ids: number[]) =>
  sql.$queryRaw<QuotableItem[]>`
    SELECT i.id, i.title, i.price_cents AS "priceCents", i.status::text AS status, i.url,
      json_build_object(
        'id', s.id, 'slug', s.slug, 'name', s.name, 'url', s.url, 'agentCheckout', s.agent_checkout, 'isOpen', s.is_open,
        'canTakePayment', s.can_take_payment, 'canShip', s.can_ship, 'freeShippingThresholdCents', s.free_shipping_threshold_cents,
        'shippingRates', (SELECT coalesce(json_agg(json_build_object('key', r.key, 'label', r.label, 'baseCents', r.base_cents,
          'perItemCents', r.per_item_cents, 'remoteSurchargeCents', r.remote_surcharge_cents, 'minDays', r.min_days, 'maxDays', r.max_days)), '[]')
          FROM shipping_rates r WHERE r.store_id = s.id)) AS store,
      (SELECT coalesce(json_agg(json_build_object('id', v.id, 'size', v.size, 'sizeKey', v.size_key, 'color', v.color, 'quantity', v.quantity) ORDER BY v.id), '[]')
        FROM variants v WHERE v.item_id = i.id) AS variants,
      (SELECT coalesce(json_agg(json_build_object('url', c.url)), '[]') FROM (SELECT url FROM item_images WHERE item_id = i.id AND is_cover LIMIT 1) c) AS images
    FROM items i JOIN stores s ON s.id = i.store_id
    WHERE ${anyOf(Prisma.sql`i.id`, ids, "int")}`;

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
