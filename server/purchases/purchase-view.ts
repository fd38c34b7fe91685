/** Purchase rows to the reference's Purchase. */
import { publicPurchaseStatus, type PurchaseState } from "./states";
import { toMoney } from "../core/money";
import { checkoutUrl } from "../checkout";
import type { TPurchase } from "./purchase.schema";

export type PurchaseRow = {
  id: string;
  status: PurchaseState;
  reason: string | null;
  cancelledBy: string | null;
  orderNumber: string | null;
  grandTotalCents: number;
  chargesAt: Date | null;
  cancelUntil: Date;
  createdAt: Date;
  /** Its store orders (placed at the hold), when read with them. */
  orders?: readonly { fulfilment: "processing" | "shipped" }[];
};

/** Shipped once every store order of the purchase has shipped. */
const fulfilmentOf = (purchase: PurchaseRow) =>
  purchase.orders?.length && purchase.orders.every((order) => order.fulfilment === "shipped")
    ? ("shipped" as const)
    : ("processing" as const);

/** The processor's code for a saved card that is not the person's customer's. */
const publicReason = (reason: string) =>
  reason === "payment_method_not_found" ? "card_not_on_this_account" : reason;

const messages: Record<string, string> = {
  card_declined:
    "The bank declined the saved card; nothing was charged. The person can pay at the checkout link.",
  authentication_required:
    "The bank wants the person to confirm this payment; nothing was charged. The person can pay at the checkout link.",
  card_not_on_this_account:
    "The saved card is not on this person's account at the processor; nothing was charged. The person must save their card again.",
  processor_refused:
    "The payment processor refused the request (the service's configuration), before any bank was asked; nothing was charged. Try again later with a new quote, or give the person a checkout link.",
  bank_no_answer: "The bank did not answer in time; any hold was released and nothing was charged.",
  processor_timeout: "The bank did not answer in time; nothing was charged.",
  item_sold:
    "The item sold elsewhere before the charge; the hold was released and nothing was charged.",
  notice_undelivered:
    "The copy email could not be delivered before the charge; the hold was released and nothing was charged.",
  hold_expired: "The bank's hold lapsed before the charge; nothing was charged.",
};

export const purchaseErrorMessage = (code: string) =>
  messages[code] ?? "The purchase could not be completed; nothing was charged.";

export const toWirePurchase = (
  purchase: PurchaseRow,
  checkout: { id: string; expiresAt: Date } | null,
): TPurchase => {
  const status = publicPurchaseStatus(purchase.status);
  // The person's own cancel is no error; every other reason (decline, item sold, bank silent) is.
  const code =
    purchase.reason && purchase.cancelledBy !== "person" ? publicReason(purchase.reason) : null;
  return {
    purchase_id: purchase.id,
    status,
    order_number: purchase.orderNumber,
    fulfilment: fulfilmentOf(purchase),
    totals: { grand_total: toMoney(purchase.grandTotalCents) },
    cancel_until: purchase.cancelUntil.toISOString(),
    charges_at: status === "held" && purchase.chargesAt ? purchase.chargesAt.toISOString() : null,
    created_at: purchase.createdAt.toISOString(),
    checkout:
      status === "requires_person" && checkout
        ? {
            checkout_id: checkout.id,
            checkout_url: checkoutUrl(checkout.id),
            expires_at: checkout.expiresAt.toISOString(),
          }
        : null,
    error: code ? { code, message: purchaseErrorMessage(code) } : null,
  };
};
