"use client";
/**
 * The payment panel, one of two by processor: with Stripe, Stripe's Payment Element
 * (stripe-pay-panel.tsx; no card form of ours at all); with the sandbox, its test-card form: terms
 * to accept, then a card form or the Link wallet. A card that needs authentication shows the
 * bank's confirm step; a decline shows why and keeps the form. The card fields are uncontrolled
 * (what was typed before hydration is kept) and the pay button waits for hydration. The payment is
 * started from onSubmit rather than as the form's `action`, as app/_components/action-form.tsx does:
 * React resets a form after its action, which cleared the card and the terms tick after a decline.
 * The form stays mounted (hidden) under the bank's confirm step, so a failed authentication comes
 * back to what was typed; the card number stays in the browser's fields only. Card and Link
 * are tabs as the ARIA pattern has them: Tab reaches the chosen one, the arrow keys switch.
 * `total` arrives formatted in the page's locale.
 */
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import {
  type FormEvent,
  type KeyboardEvent,
  startTransition,
  useActionState,
  useRef,
  useState,
} from "react";
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

const methods = ["card", "link"] as const;
type Method = (typeof methods)[number];

/** Card and Link as tabs: the arrow keys (and Home/End) move to the other tab and choose it. */
function MethodTabs({ method, onChoose }: { method: Method; onChoose: (method: Method) => void }) {
  const t = useTranslations("checkout.pay");
  const refs = useRef<Record<Method, HTMLButtonElement | null>>({ card: null, link: null });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = methods.indexOf(method);
    const next =
      event.key === "ArrowRight" || event.key === "ArrowDown"
        ? methods[(index + 1) % methods.length]
        : event.key === "ArrowLeft" || event.key === "ArrowUp"
          ? methods[(index + methods.length - 1) % methods.length]
          : event.key === "Home"
            ? methods[0]
            : event.key === "End"
              ? methods[methods.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    onChoose(next);
    refs.current[next]?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={t("method")} onKeyDown={onKeyDown}>
      {methods.map((candidate) => (
        <button
          key={candidate}
          ref={(element) => {
            refs.current[candidate] = element;
          }}
          type="button"
          role="tab"
          id={`pay-tab-${candidate}`}
          aria-controls="pay-method-panel"
          aria-selected={method === candidate}
          tabIndex={method === candidate ? 0 : -1}
          onClick={() => onChoose(candidate)}
        >
          {t(candidate)}
        </button>
      ))}
    </div>
  );
}

function SandboxPayPanel({ checkoutId, email, total, pendingPaymentId }: Props) {
  const t = useTranslations("checkout.pay");
  const isHydrated = useHydrated();
  const [method, setMethod] = useState<Method>("card");
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

  const message =
    latest?.error ??
    (latest?.outcome && "message" in latest.outcome ? latest.outcome.message : undefined);
  const submitPayment = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => pay(data));
  };
  return (
    <>
      {challenge ? (
        <section className="card pay" aria-label={t("confirmLabel")}>
          <h2>{t("confirmHeading")}</h2>
          <p>{t("confirmText", { total })}</p>
          <form action={confirm}>
            <input type="hidden" name="id" value={checkoutId} />
            <input type="hidden" name="payment_id" value={challenge} />
            <button name="result" value="approve" disabled={confirming}>
              {t("approve")}
            </button>{" "}
            <button name="result" value="fail" className="secondary" disabled={confirming}>
              {t("fail")}
            </button>
          </form>
        </section>
      ) : null}
      {/* Kept mounted (not rendered again) while the bank's step shows, so its fields keep their values. */}
      <section
        className="card pay"
        aria-labelledby="pay-heading"
        style={challenge ? { display: "none" } : undefined}
      >
        <h2 id="pay-heading">{t("heading")}</h2>
        {message ? (
          <p role="alert" className="alert">
            {message}
          </p>
        ) : null}
        <MethodTabs method={method} onChoose={setMethod} />
        <form
          // The server action stays the form's action, so the page's HTML posts to it without
          // JavaScript (and a plain HTTP client can pay, as the embedded-default load test does);
          // once hydrated, onSubmit starts it instead and prevents the form action, so React does
          // not reset what was typed.
          action={pay}
          onSubmit={submitPayment}
          id="pay-method-panel"
          role="tabpanel"
          aria-labelledby={`pay-tab-${method}`}
        >
          <input type="hidden" name="id" value={checkoutId} />
          <input type="hidden" name="method" value={method} />
          {method === "card" ? (
            <div className="fields">
              <label>
                {t("cardNumber")}
                <input
                  name="number"
                  inputMode="numeric"
                  autoComplete="cc-number"
                  placeholder="4242 4242 4242 4242"
                  required
                />
              </label>
              <label>
                {t("month")}
                <input
                  name="exp_month"
                  inputMode="numeric"
                  autoComplete="cc-exp-month"
                  placeholder="12"
                  required
                  size={3}
                />
              </label>
              <label>
                {t("year")}
                <input
                  name="exp_year"
                  inputMode="numeric"
                  autoComplete="cc-exp-year"
                  placeholder="2030"
                  required
                  size={5}
                />
              </label>
              <label>
                {t("cvc")}
                <input
                  name="cvc"
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  placeholder="123"
                  required
                  size={4}
                />
              </label>
            </div>
          ) : (
            <label>
              {t("linkEmail")}
              <input name="link_email" type="email" defaultValue={email} required />
            </label>
          )}
          {latest?.fields ? (
            <ul className="alert">
              {Object.entries(latest.fields).map(([field, text]) => (
                <li key={field}>{text}</li>
              ))}
            </ul>
          ) : null}
          <label className="terms">
            <input type="checkbox" name="accept_terms" required /> {t("terms")}
          </label>
          <button type="submit" disabled={paying || !isHydrated}>
            {method === "link" ? t("payWithLink", { total }) : t("pay", { total })}
          </button>
        </form>
      </section>
    </>
  );
}
