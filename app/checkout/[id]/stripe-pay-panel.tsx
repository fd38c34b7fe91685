"use client";
/**
 * The payment panel with the Stripe processor: Stripe's Payment Element (card, Link; 3-D Secure by
 * Stripe's own flow), so no card number or CVC ever reaches this service. On "Pay", the element is
 * validated, the server opens the attempt and its PaymentIntent and hands back only the client
 * secret, Stripe.js confirms it, and the server is asked to complete: it retrieves the intent from
 * Stripe and places the orders once. After a 3-D Secure redirect the browser returns to this page
 * with `payment_intent` in the URL, and the same completion runs. `total` arrives formatted in the
 * page's locale; the Element speaks it too.
 */
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { intentIdOf, stripeFor } from "@/app/_components/stripe";
import { useHydrated } from "@/app/_components/use-hydrated";
import { type ActionState, completeStripePayment, startStripePayment } from "./actions";

type Props = { checkoutId: string; publishableKey: string; amountCents: number; total: string };

function PayWithElement({ checkoutId, total }: { checkoutId: string; total: string }) {
  const t = useTranslations("checkout.pay");
  const stripe = useStripe();
  const elements = useElements();
  const router = useRouter();
  const isHydrated = useHydrated();
  const [isReady, setIsReady] = useState(false);
  const [isPaying, setIsPaying] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const returned = useRef(false);

  const show = (state: ActionState) => {
    if (state?.outcome?.outcome === "paid") return router.refresh();
    setMessage(
      state?.error ?? (state?.outcome && "message" in state.outcome ? state.outcome.message : null),
    );
    if (state?.outcome?.outcome === "closed") router.refresh();
  };

  // Back from Stripe's 3-D Secure page: the server asks Stripe how it went (the URL is never trusted).
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const paymentIntent = params.get("payment_intent");
    if (!paymentIntent || returned.current) return;
    returned.current = true;
    setIsPaying(true);
    void completeStripePayment(checkoutId, paymentIntent)
      .then((state) => {
        // The page's own URL again (through the router, which keeps its own copy of the URL), then the outcome.
        router.replace(window.location.pathname, { scroll: false });
        show(
          state ??
            (params.get("redirect_status") === "failed" ? { error: t("bankFailed") } : undefined),
        );
      })
      .finally(() => setIsPaying(false));
  }, [checkoutId]);

  const pay = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setMessage(null);
    // Read at submit (an uncontrolled checkbox keeps what was ticked before hydration).
    const acceptTerms = (event.currentTarget.elements.namedItem("accept_terms") as HTMLInputElement)
      .checked;
    if (!acceptTerms) return setMessage(t("acceptTerms"));
    setIsPaying(true);
    try {
      const checked = await elements.submit();
      if (checked.error) return setMessage(checked.error.message ?? t("checkDetails"));
      const started = await startStripePayment(checkoutId, acceptTerms);
      if (!started.clientSecret) return show({ error: started.error });
      const confirmed = await stripe.confirmPayment({
        elements,
        clientSecret: started.clientSecret,
        redirect: "if_required",
        confirmParams: { return_url: `${window.location.origin}/checkout/${checkoutId}` },
      });
      // Whatever Stripe.js says, the server asks Stripe (a decline is recorded, an authorization pays).
      const completed = await completeStripePayment(checkoutId, intentIdOf(started.clientSecret));
      show(
        completed ??
          (confirmed.error ? { error: confirmed.error.message ?? t("notThrough") } : undefined),
      );
    } finally {
      setIsPaying(false);
    }
  };

  return (
    <form onSubmit={pay}>
      {message ? (
        <p role="alert" className="alert">
          {message}
        </p>
      ) : null}
      <PaymentElement onReady={() => setIsReady(true)} options={{ layout: "tabs" }} />
      <label className="terms">
        <input type="checkbox" name="accept_terms" /> {t("terms")}
      </label>
      <button type="submit" disabled={!isHydrated || !isReady || isPaying}>
        {t("pay", { total })}
      </button>
    </form>
  );
}

export function StripePayPanel({ checkoutId, publishableKey, amountCents, total }: Props) {
  const t = useTranslations("checkout.pay");
  const locale = useLocale();
  return (
    <section className="card pay" aria-labelledby="pay-heading">
      <h2 id="pay-heading">{t("heading")}</h2>
      <Elements
        stripe={stripeFor(publishableKey)}
        options={{
          mode: "payment",
          amount: amountCents,
          currency: "cad",
          captureMethod: "manual",
          locale: locale === "fr-CA" ? "fr-CA" : "en-CA",
        }}
      >
        <PayWithElement checkoutId={checkoutId} total={total} />
      </Elements>
    </section>
  );
}
