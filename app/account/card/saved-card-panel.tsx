"use client";
/**
 * The saved card (brand, last four, expiry), its remove button, and the form that saves a card.
 * Removing calls the dashboard procedure through @trpc/client and shows the result in place. In the
 * sandbox the card is entered in SandboxCardForm (test cards); in production that form is not
 * shown: only the processor's own form may take a card number.
 */
import { useState } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, messageOf } from "@/app/_trpc/client";
import type { TSavedCard, TSavedCardResponse } from "@/server/routers/account/saved-card.schema";
import { NoticeLine, type Notice } from "../notice-line";
import { cardName } from "./card-name";
import { SandboxCardForm } from "./sandbox-card-form";

function SavedCardFacts({ card, isPending, onRemove }: { card: TSavedCard | null; isPending: boolean; onRemove: () => void }) {
  if (!card) return <p className="empty" data-testid="saved-card">No card saved. Assistants cannot buy for you until you save one.</p>;
  return (
    <div className="panel-head">
      <div data-testid="saved-card">
        <strong>{cardName(card)}</strong>
        <div className="hint">Expires {String(card.exp_month).padStart(2, "0")}/{card.exp_year}</div>
      </div>
      <button type="button" className="button secondary" disabled={isPending} onClick={onRemove}>Remove card</button>
    </div>
  );
}

export function SavedCardPanel({ initial }: { initial: TSavedCardResponse }) {
  const [card, setCard] = useState(initial.card);
  // What is saved or removed shows beside the card; a refused save shows in the form.
  const [cardNotice, setCardNotice] = useState<Notice>(null);
  const [isRemoving, setIsRemoving] = useState(false);
  const isHydrated = useHydrated();

  const saved = (response: TSavedCardResponse) => {
    setCard(response.card);
    setCardNotice({ tone: "ok", text: `${response.card ? cardName(response.card) : "Your card"} is saved.` });
  };
  const remove = async () => {
    setIsRemoving(true);
    setCardNotice(null);
    try {
      setCard((await dashboardClient.account.removeCard.mutate()).card);
      setCardNotice({ tone: "ok", text: "Your card is removed." });
    } catch (error) {
      setCardNotice({ tone: "error", text: messageOf(error) });
    } finally {
      setIsRemoving(false);
    }
  };

  return (
    <>
      <section className="panel" aria-labelledby="card-title">
        <h2 id="card-title">Card on file</h2>
        <SavedCardFacts card={card} isPending={isRemoving || !isHydrated} onRemove={() => void remove()} />
        <div style={{ marginTop: 12 }}>
          <NoticeLine notice={cardNotice} />
        </div>
      </section>
      <section className="panel" aria-labelledby="card-form-title">
        <h2 id="card-form-title">{card ? "Replace the card" : "Save a card"}</h2>
        {initial.card_entry === "processor_form" ? (
          <p className="notice warn">
            Cards are saved through the payment processor&apos;s own secure form, which is not available on this page yet. This service never takes a card number directly.
          </p>
        ) : (
          <SandboxCardForm replacing={card !== null} disabled={isRemoving} onSaved={saved} />
        )}
      </section>
    </>
  );
}
