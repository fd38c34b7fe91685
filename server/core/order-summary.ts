/**
 * What was bought, in the one shape every shopper page and email shows it: each store's items
 * (title, size as listed, condition, picture), its shipping option, tax lines and total, the ship-to
 * address and the overall breakdown. Amounts stay cents and dates stay ISO days: the page or email
 * formats them in the reader's language and zone (locale.ts). JSON-safe, because the email outbox
 * stores it as the email's props. Built from a quote by checkout's orderSummary.
 */
export type SummaryItem = {
  title: string;
  size: string | null;
  condition: string | null;
  quantity: number;
  imageUrl: string | null;
  url: string;
  lineCents: number;
};

export type StoreSummary = {
  storeName: string;
  storeUrl: string;
  /** The store's order number (`SO-7K3M9QX2-1`), once orders exist. */
  orderNumber: string | null;
  items: SummaryItem[];
  shipping: { label: string; cents: number; earliest: string; latest: string };
  taxLines: { name: string; rate: string; cents: number }[];
  totals: {
    itemsCents: number;
    discountCents: number;
    shippingCents: number;
    taxCents: number;
    totalCents: number;
  };
};

export type OrderSummary = {
  orderNumber: string | null;
  stores: StoreSummary[];
  shipTo: string[];
  totals: StoreSummary["totals"];
};
