/** A checkout paid in the sandbox through the real page procedure, for the marketplace-money tests. */
import { createItem } from "@/prisma/factories";
import { db } from "../platform/db";
import { randomId } from "../core/ids";
import type { PaymentProvider } from "../payments";
import { testCards } from "../payments/sandbox-cards";
import { createCheckoutVia, createQuoteVia } from "./checkout-fixtures";
import { pageCaller } from "./page-caller";

export const sandboxCard = {
  type: "card" as const,
  number: testCards.succeeds,
  exp_month: 12,
  exp_year: 2034,
  cvc: "123",
};

/** A paid checkout of one new item per store at the given prices: its id, captured payment and store orders. */
export const payCheckout = async (token: string, stores: { id: number }[], prices: number[]) => {
  const items = await Promise.all(
    stores.map((store, index) => createItem({ storeId: store.id, priceCents: prices[index] })),
  );
  const quote = await createQuoteVia(
    token,
    items.map((item) => ({ item_id: item.id })),
  );
  if (quote.response.status !== 201) throw new Error(JSON.stringify(quote.body));
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: "buyer@example.ca",
  });
  const id = JSON.parse(text).checkout_id as string;
  const paid = await pageCaller().checkoutPage.pay({ id, accept_terms: true, method: sandboxCard });
  if (paid.outcome !== "paid") throw new Error(`checkout ${id}: ${paid.outcome}`);
  const payment = await db().payment.findFirstOrThrow({
    where: { checkoutId: id, status: "captured" },
  });
  const orders = await db().order.findMany({
    where: { checkoutId: id },
    orderBy: { number: "asc" },
  });
  return { id, payment, orders };
};

/** A PaymentIntent held and captured at the Stripe-shaped server through the provider: its id. */
export const captureAtStripe = async (provider: PaymentProvider, amountCents: number) => {
  const held = await provider.authorize({
    idempotencyKey: randomId("auth_"),
    amountCents,
    method: { type: "card", number: testCards.succeeds, expMonth: 12, expYear: 2034, cvc: "123" },
    description: "Checkout",
  });
  const captured = await provider.capture({ idempotencyKey: randomId("cap_"), paymentId: held.id });
  if (captured.status !== "captured") throw new Error(`not captured: ${captured.status}`);
  return held.id;
};

/**
 * A checkout paid in the sandbox whose payment is then pointed at a PaymentIntent captured at the
 * Stripe-shaped server for the same amount: Stripe's half of the money paths, on real rows.
 */
export const payCheckoutAtStripe = async (
  token: string,
  provider: PaymentProvider,
  stores: { id: number }[],
  prices: number[],
) => {
  const paid = await payCheckout(token, stores, prices);
  const intentId = await captureAtStripe(provider, paid.payment.amountCents);
  await db().payment.update({
    where: { id: paid.payment.id },
    data: { processorPaymentId: intentId },
  });
  return { ...paid, payment: { ...paid.payment, processorPaymentId: intentId } };
};
