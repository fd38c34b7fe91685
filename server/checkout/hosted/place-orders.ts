/**
 * Places the orders of a checkout being paid, inside the payment's transaction: one order per store
 * (from the quote snapshot and the chosen options), one order number for the checkout, the checkout
 * marked paid, items with nothing left marked sold (they leave search), and the confirmation email
 * written to the outbox. A linked person's checkout joins their account when its email is theirs.
 */
import { addressLines } from "../order-summary";
import { formatCents } from "../../core/money";
import { addTotals } from "../../core/totals";
import { enqueueEmail } from "../../platform/mail/outbox";
import type { OrderConfirmationProps } from "../../../emails/order-confirmation";
import { moveCheckouts } from "../checkout-transitions";
import type { QuoteSnapshot, Selections } from "../quote-snapshot";
import { newOrderNumber, writeStoreOrders } from "../store-orders";
import type { TShippingAddress } from "../checkout.schema";
import type { Tx } from "../../platform/db";
import { markSoldOut } from "../../catalogue";
import { findPersonEmail } from "../store/borrowed";
import { itemsNoOpenCheckoutHolds, readCheckoutQuote } from "../store/checkouts";

const shortDate = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString("en-CA", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

type Paying = { id: string; email: string; personId: string | null; firstName: string | null };

/** Places the orders paid by `paymentId`, which the checkout records as its one payment to capture. */
export const placeOrders = async (
  tx: Tx,
  checkout: Paying,
  paying: { paymentId: string; now: Date },
) => {
  const { now } = paying;
  const { selections, quote } = await readCheckoutQuote(tx, checkout.id);
  const person = checkout.personId ? await findPersonEmail(tx, checkout.personId) : null;
  const personId =
    person && person.email.toLowerCase() === checkout.email.toLowerCase() ? person.id : null;
  const orderNumber = newOrderNumber();
  const orders = await writeStoreOrders(tx, {
    owner: { checkoutId: checkout.id },
    snapshot: quote.snapshot as unknown as QuoteSnapshot,
    selections: selections as Selections,
    personId,
    email: checkout.email,
    orderNumber,
    now,
  });
  const [paid] = await moveCheckouts(tx, {
    ids: [checkout.id],
    event: "pay",
    now,
    paid: { orderNumber, paymentId: paying.paymentId },
  });
  if (!paid) throw new Error(`checkout ${checkout.id} is not awaiting payment`);
  // Sold when nothing is left and no other open checkout still holds a unit (quantity > 1 items).
  await markSoldOut(tx, await itemsNoOpenCheckoutHolds(tx, checkout.id), now);
  const totals = addTotals(orders.map(({ option }) => option.totals));
  const props: OrderConfirmationProps = {
    firstName: checkout.firstName,
    orderNumber,
    stores: orders.map(({ store, option, number }) => ({
      storeName: store.name,
      orderNumber: number,
      shippingLabel: option.label,
      shipping: formatCents(option.amountCents),
      delivery: `${shortDate(option.delivery.earliest)} – ${shortDate(option.delivery.latest)}`,
      items: store.lines.map((line) => ({
        title: line.title,
        size: line.size,
        quantity: line.quantity,
        lineTotal: formatCents(line.unitPriceCents * line.quantity),
      })),
      taxLines: option.taxLines.map((line) => ({
        name: line.name,
        rate: line.rate,
        amount: formatCents(line.amountCents),
      })),
      total: formatCents(option.totals.grandTotalCents),
    })),
    totals: {
      subtotal: formatCents(totals.subtotalCents),
      shipping: formatCents(totals.shippingCents),
      tax: formatCents(totals.taxCents),
      grandTotal: formatCents(totals.grandTotalCents),
    },
    shipTo: addressLines(quote.address as TShippingAddress),
  };
  await enqueueEmail(tx, {
    to: checkout.email,
    template: "order-confirmation",
    props,
    dedupeKey: `order-confirmation:${checkout.id}`,
  });
  return orderNumber;
};
