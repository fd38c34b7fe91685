"use client";
/**
 * The saved card with the Stripe processor: Stripe's Payment Element in setup mode, so the card
 * never reaches this service. On "Save card" the element is validated, the server opens a
 * SetupIntent for the person's Stripe Customer (`account.startCardSetup`, only its client secret
 * comes back), Stripe.js confirms it (3-D Secure may redirect and return here with `setup_intent`
 * in the URL), and `account.completeCardSetup` asks Stripe and records brand, last four and expiry.
 * Replacing or removing the card detaches the old one at Stripe (server side).
 */
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { useTranslations } from "next-intl";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { stripeFor, intentIdOf } from "@/app/_components/stripe";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, messageOf } from "@/app/_trpc/client";
import type { TSavedCardResponse } from "@/server/accounts";
import { NoticeLine, type Notice } from "../notice-line";
import { CardOnFile, useCardOnFile } from "./card-on-file";

function SetupForm({
  hasCard,
  onSaved,
}: {
  hasCard: boolean;
  onSaved: (saved: TSavedCardResponse) => void;
}) {
  const t = useTranslations("account.card");
  const stripe = useStripe();
  const elements = useElements();
  const isHydrated = useHydrated();
  const [isReady, setIsReady] = useState(false);
  const [isPending, setIsPending] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const returned = useRef(false);

  const complete = async (setupIntent: string, confirmError?: string) => {
    try {
      onSaved(
        await dashboardClient.account.completeCardSetup.mutate({ setup_intent: setupIntent }),
      );
    } catch (error) {
      setNotice({ tone: "error", text: confirmError ?? messageOf(error) });
    }
  };

  // Back from Stripe's 3-D Secure page: the server asks Stripe how it went.
  useEffect(() => {
    const setupIntent = new URLSearchParams(window.location.search).get("setup_intent");
    if (!setupIntent || returned.current) return;
    returned.current = true;
    window.history.replaceState(null, "", window.location.pathname);
    setIsPending(true);
    void complete(setupIntent).finally(() => setIsPending(false));
  }, []);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setNotice(null);
    setIsPending(true);
    try {
      const checked = await elements.submit();
      if (checked.error)
        return setNotice({
          tone: "error",
          text: checked.error.message ?? t("checkDetails"),
        });
      const { client_secret: clientSecret } = await dashboardClient.account.startCardSetup.mutate();
      const confirmed = await stripe.confirmSetup({
        elements,
        clientSecret,
        redirect: "if_required",
        confirmParams: { return_url: `${window.location.origin}/account/card` },
      });
      await complete(intentIdOf(clientSecret), confirmed.error?.message);
    } catch (error) {
      setNotice({ tone: "error", text: messageOf(error) });
    } finally {
      setIsPending(false);
    }
  };

  return (
    <form className="form" style={{ marginTop: 16 }} onSubmit={save} noValidate>
      <NoticeLine notice={notice} />
      <PaymentElement onReady={() => setIsReady(true)} options={{ layout: "tabs" }} />
      <div>
        <button
          type="submit"
          className="button primary"
          disabled={isPending || !isHydrated || !isReady}
        >
          {hasCard ? t("replace") : t("save")}
        </button>
      </div>
    </form>
  );
}

export function StripeCardSetup({
  initial,
  publishableKey,
}: {
  initial: TSavedCardResponse;
  publishableKey: string;
}) {
  const onFile = useCardOnFile(initial.card);
  const t = useTranslations("account.card");

  return (
    <>
      <CardOnFile onFile={onFile} />
      <section className="panel" aria-labelledby="card-form-title">
        <h2 id="card-form-title">{onFile.card ? t("replaceTitle") : t("saveTitle")}</h2>
        <p className="hint">{t("stripeHint")}</p>
        <Elements stripe={stripeFor(publishableKey)} options={{ mode: "setup", currency: "cad" }}>
          <SetupForm hasCard={Boolean(onFile.card)} onSaved={onFile.saved} />
        </Elements>
      </section>
    </>
  );
}
