"use client";
/**
 * The payment panel, one of two by processor: with Stripe, Stripe's Payment Element
 * (stripe-pay-panel.tsx; no card form of ours at all); with the sandbox, its test-card form: terms
 * to accept, then a card form or the Link wallet. A card that needs authentication shows the
 * bank's confirm step; a decline shows why and keeps the form. The card fields are uncontrolled
 * (what was typed before hydration is kept) and the pay button waits for hydration.
 */
import dynamic from "next/dynamic";
import { useActionState, useState } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { type ActionState, confirmAuthentication, payCheckout } from "./actions";

// Its own chunk (Stripe's React bindings), loaded only where the Stripe panel renders.
const StripePayPanel = dynamic(() =>
  import("./stripe-pay-panel").then((module) => module.StripePayPanel),
);

export type PaymentPanel =
  { processor: "sandbox" } | { processor: "stripe"; publishableKey: string; amountCents: number };

type Props = { checkoutId: string; email: string; total: string; pendingPaymentId: string | null };

export function PayForm({ panel, ...props }: Props & { panel: PaymentPanel }) {
  if (panel.processor === "stripe")
    return (
      <StripePayPanel
        checkoutId={props.checkoutId}
        publishableKey={panel.publishableKey}
        amountCents={panel.amountCents}
        total={props.total}
      />
    );
  return <SandboxPayPanel {...props} />;
}

function SandboxPayPanel({ checkoutId, email, total, pendingPaymentId }: Props) {
  const isHydrated = useHydrated();
  const [method, setMethod] = useState<"card" | "link">("card");
  const [payState, pay, paying] = useActionState<ActionState, FormData>(payCheckout, undefined);
  const [confirmState, confirm, confirming] = useActionState<ActionState, FormData>(
    confirmAuthentication,
    undefined,
  );
  const latest = confirmState ?? payState;
  const challenge =
    payState?.outcome?.outcome === "requires_action" && !confirmState
      ? payState.outcome.paymentId
      : pendingPaymentId && !latest
        ? pendingPaymentId
        : null;

  if (challenge) {
    return (
      <section className="card pay" aria-label="Confirm payment">
        <h2>Confirm this payment with your bank</h2>
        <p>Sandbox bank: approve or fail the authentication of ${total} CAD.</p>
        <form action={confirm}>
          <input type="hidden" name="id" value={checkoutId} />
          <input type="hidden" name="payment_id" value={challenge} />
          <button name="result" value="approve" disabled={confirming}>
            Complete authentication
          </button>{" "}
          <button name="result" value="fail" className="secondary" disabled={confirming}>
            Fail authentication
          </button>
        </form>
      </section>
    );
  }
  const message =
    latest?.error ??
    (latest?.outcome && "message" in latest.outcome ? latest.outcome.message : undefined);
  return (
    <section className="card pay" aria-label="Payment">
      <h2>Payment</h2>
      {message ? (
        <p role="alert" className="alert">
          {message}
        </p>
      ) : null}
      <div className="tabs" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={method === "card"}
          onClick={() => setMethod("card")}
        >
          Card
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={method === "link"}
          onClick={() => setMethod("link")}
        >
          Link
        </button>
      </div>
      <form action={pay}>
        <input type="hidden" name="id" value={checkoutId} />
        <input type="hidden" name="method" value={method} />
        {method === "card" ? (
          <div className="fields">
            <label>
              Card number
              <input
                name="number"
                inputMode="numeric"
                autoComplete="cc-number"
                placeholder="4242 4242 4242 4242"
                required
              />
            </label>
            <label>
              Month
              <input name="exp_month" inputMode="numeric" placeholder="12" required size={3} />
            </label>
            <label>
              Year
              <input name="exp_year" inputMode="numeric" placeholder="2030" required size={5} />
            </label>
            <label>
              CVC
              <input name="cvc" inputMode="numeric" placeholder="123" required size={4} />
            </label>
          </div>
        ) : (
          <label>
            Link email
            <input name="link_email" type="email" defaultValue={email} required />
          </label>
        )}
        {latest?.fields ? (
          <ul className="alert">
            {Object.entries(latest.fields).map(([field, reason]) => (
              <li key={field}>
                {field}: {reason}
              </li>
            ))}
          </ul>
        ) : null}
        <label className="terms">
          <input type="checkbox" name="accept_terms" required /> I accept the terms of sale and each
          store&apos;s return policy
        </label>
        <button type="submit" disabled={paying || !isHydrated}>
          {method === "link" ? "Pay with Link" : "Pay"} ${total} CAD
        </button>
      </form>
    </section>
  );
}
