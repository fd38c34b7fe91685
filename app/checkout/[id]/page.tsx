/**
 * The hosted checkout (checkout_url): review items by store, the address, shipping choice per store,
 * tax lines and totals, accept the terms and pay. Every amount comes from the checkout's quote
 * snapshot through the page procedures; nothing is priced here. A closed checkout shows its state
 * and never a pay button.
 */
import { notFound } from "next/navigation";
import { Fragment } from "react";
import { pageCaller } from "@/app/_trpc/server";
import { parseCents } from "@/server/core/money";
import { env } from "@/server/platform/env";
import { toAppError } from "@/server/platform/http/respond";
import type { CheckoutPageView } from "@/server/checkout";
import { type PaymentPanel, PayForm } from "./pay-form";
import { ShippingChoice } from "./shipping-choice";
import "./checkout.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "Checkout", robots: { index: false } };

const loadView = async (id: string): Promise<CheckoutPageView | null> => {
  if (!/^chk_[0-9a-f]{24}$/.test(id)) return null;
  try {
    return await (await pageCaller()).checkoutPage.view({ id });
  } catch (error) {
    if (toAppError(error).code === "not_found") return null;
    throw error;
  }
};

const closedText: Record<string, string> = {
  cancelled:
    "This checkout was cancelled. Nothing was charged; ask the app that sent you here for a new link.",
  expired:
    "This checkout link expired. Nothing was charged; ask the app that sent you here for a new link.",
};

/** The sandbox's test-card form, or Stripe's Payment Element (the only card form in production). */
const paymentPanel = (view: CheckoutPageView): PaymentPanel => {
  const config = env();
  if (config.PAYMENT_PROCESSOR === "sandbox") return { processor: "sandbox" };
  if (!config.STRIPE_PUBLISHABLE_KEY)
    throw new Error(
      "Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: required when PAYMENT_PROCESSOR is stripe",
    );
  return {
    processor: "stripe",
    publishableKey: config.STRIPE_PUBLISHABLE_KEY,
    amountCents: parseCents(view.totals.grand_total.amount),
  };
};

export default async function CheckoutPage({ params }: { params: Promise<{ id: string }> }) {
  const view = await loadView((await params).id);
  if (!view) notFound();
  const isOpen = view.status === "awaiting_payment";
  return (
    <main className="shell checkout">
      <h1>Checkout</h1>
      {view.status === "paid" ? (
        <section className="card state paid" aria-label="Order placed">
          <h2>Paid — thank you!</h2>
          <p>
            Order number <strong data-testid="order-number">{view.orderNumber}</strong>. A
            confirmation is on its way to {view.email}.
          </p>
        </section>
      ) : null}
      {view.status === "cancelled" || view.status === "expired" ? (
        <section className="card state closed" aria-label="Checkout closed">
          <h2>{view.status === "cancelled" ? "Cancelled" : "Expired"}</h2>
          <p>
            {view.closedReason === "price_changed"
              ? "A price changed since this link was made. Nothing was charged; ask for a new link."
              : view.closedReason === "item_unavailable"
                ? "An item is no longer available. Nothing was charged; ask for a new link."
                : closedText[view.status]}
          </p>
        </section>
      ) : null}
      {isOpen ? (
        <p className="muted">
          This link works until{" "}
          {new Date(view.expiresAt).toLocaleTimeString("en-CA", {
            hour: "2-digit",
            minute: "2-digit",
            timeZone: "America/Toronto",
            timeZoneName: "short",
          })}
          .
        </p>
      ) : null}
      <section className="card" aria-label="Ship to">
        <h2>Ship to</h2>
        <p>{view.shipTo.join(", ")}</p>
        <p className="muted">Confirmation and tracking go to {view.email}</p>
      </section>
      {view.stores.map((store) => (
        <section key={store.store.slug} className="card store" aria-label={store.store.name}>
          <h2>
            {store.store.name}
            {store.orderNumber ? <span className="muted"> · order {store.orderNumber}</span> : null}
          </h2>
          <ul className="items">
            {store.items.map((item) => (
              <li key={`${item.item_id}-${item.size}`}>
                {item.image ? (
                  <img src={item.image} alt="" width={64} height={80} />
                ) : (
                  <span className="no-image" />
                )}
                <span className="title">
                  {item.title}
                  {item.size ? ` · ${item.size}` : ""}
                  {item.quantity > 1 ? ` × ${item.quantity}` : ""}
                </span>
                <span className="amount">${item.line_total.amount}</span>
              </li>
            ))}
          </ul>
          <ShippingChoice
            checkoutId={view.id}
            store={store.store.slug}
            options={store.shipping_options}
            selected={store.selected_shipping}
            disabled={!isOpen}
          />
          {store.free_shipping && !store.free_shipping.qualifies ? (
            <p className="muted">
              Spend ${store.free_shipping.remaining.amount} more at {store.store.name} for free
              shipping.
            </p>
          ) : null}
          <dl className="lines">
            <dt>Items</dt>
            <dd>${store.totals.subtotal.amount}</dd>
            <dt>Shipping</dt>
            <dd>${store.totals.shipping.amount}</dd>
            {store.tax_lines.map((tax) => (
              <Fragment key={tax.name}>
                <dt>
                  {tax.name} {tax.rate}
                </dt>
                <dd>${tax.amount.amount}</dd>
              </Fragment>
            ))}
            <dt>Store total</dt>
            <dd>${store.totals.grand_total.amount}</dd>
          </dl>
        </section>
      ))}
      <section className="card totals" aria-label="Totals">
        <dl className="lines">
          <dt>Subtotal</dt>
          <dd>${view.totals.subtotal.amount}</dd>
          <dt>Discount</dt>
          <dd>-${view.totals.discount.amount}</dd>
          <dt>Shipping</dt>
          <dd>${view.totals.shipping.amount}</dd>
          <dt>Tax</dt>
          <dd>${view.totals.tax.amount}</dd>
          <dt className="grand">Total (CAD)</dt>
          <dd className="grand" data-testid="grand-total">
            ${view.totals.grand_total.amount}
          </dd>
        </dl>
      </section>
      {isOpen ? (
        <PayForm
          checkoutId={view.id}
          email={view.email}
          total={view.totals.grand_total.amount}
          pendingPaymentId={view.pendingPaymentId}
          panel={paymentPanel(view)}
        />
      ) : null}
    </main>
  );
}
