/**
 * Places the orders of a checkout being paid, inside the payment's transaction: one order per store
 * (from the quote snapshot and the chosen options), one order number for the checkout, the checkout
 * marked paid, items with nothing left marked sold (they leave search), and the confirmation email
 * written to the outbox. A linked person's checkout joins their account when its email is theirs.
 */
import { enqueueEmail } from "../../platform/mail/outbox";
import type { OrderConfirmationProps } from "../../../emails/order-confirmation";
import { moveCheckouts } from "../checkout-transitions";
import { checkoutReader, provinceOf } from "../email-reader";
import { orderSummary } from "../order-summary";
import type { QuoteSnapshot, Selections } from "../quote-snapshot";
import { newOrderNumber, writeStoreOrders } from "../store-orders";
import type { TShippingAddress } from "../checkout.schema";
import type { Tx } from "../../platform/db";
import { markSoldOut } from "../../catalogue";
import { findPersonEmail } from "../store/borrowed";
import { itemsNoOpenCheckoutHolds, readCheckoutQuote } from "../store/checkouts";

type Paying = {
  id: string;
  email: string;
  personId: string | null;
  firstName: string | null;
  /** The language the buyer paid in (recorded when the attempt opened). */
  buyerLanguage: string | null;
};

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
  await writeStoreOrders(tx, {
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
  // In the language the buyer paid in (else the person's saved one), in the ship-to's zone.
  const reader = await checkoutReader(tx, {
    buyerLanguage: checkout.buyerLanguage,
    personId,
    province: provinceOf(quote.address),
  });
  const props: OrderConfirmationProps = {
    ...reader,
    firstName: checkout.firstName,
    orderNumber,
    paidAt: now.toISOString(),
    summary: orderSummary({
      snapshot: quote.snapshot as unknown as QuoteSnapshot,
      selections: selections as Selections,
      address: quote.address as TShippingAddress,
      orderNumber,
    }),
  };
  await enqueueEmail(tx, {
    to: checkout.email,
    template: "order-confirmation",
    props,
    dedupeKey: `order-confirmation:${checkout.id}`,
  });
  return orderNumber;
};
