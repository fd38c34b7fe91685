"use client";
/**
 * The "Card on file" panel both card pages show (the sandbox's test-card form and Stripe's Payment
 * Element): the saved card (brand, last four, expiry), its remove button, and what was just saved
 * or removed. Removing calls the dashboard procedure through @trpc/client and shows the result in
 * place; the button stays disabled until hydration (a click before it would be lost).
 */
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, messageOf } from "@/app/_trpc/client";
import type { TSavedCard, TSavedCardResponse } from "@/server/accounts";
import { NoticeLine, type Notice } from "../notice-line";
import { cardName } from "./card-name";

/** The card on file and its two changes: `saved` after a form saved one, `remove`. */
export function useCardOnFile(initial: TSavedCard | null) {
  const t = useTranslations("account.card");
  const [card, setCard] = useState(initial);
  const [notice, setNotice] = useState<Notice>(null);
  const [isRemoving, setIsRemoving] = useState(false);
  const saved = (response: TSavedCardResponse) => {
    setCard(response.card);
    setNotice({
      tone: "ok",
      text: t("saved", {
        card: response.card ? cardName(response.card, t("brand.card")) : t("yourCard"),
      }),
    });
  };
  const remove = async () => {
    setIsRemoving(true);
    setNotice(null);
    try {
      setCard((await dashboardClient.account.removeCard.mutate()).card);
      setNotice({ tone: "ok", text: t("removed") });
    } catch (error) {
      setNotice({ tone: "error", text: messageOf(error) });
    } finally {
      setIsRemoving(false);
    }
  };
  return { card, notice, isRemoving, saved, remove };
}

export function CardOnFile({ onFile }: { onFile: ReturnType<typeof useCardOnFile> }) {
  const t = useTranslations("account.card");
  const isHydrated = useHydrated();
  const { card, notice } = onFile;
  return (
    <section className="panel" aria-labelledby="card-title">
      <h2 id="card-title">{t("onFile")}</h2>
      {card ? (
        <div className="panel-head">
          <div data-testid="saved-card">
            <strong>{cardName(card, t("brand.card"))}</strong>
            <div className="hint">
              {t("expires", {
                month: String(card.exp_month).padStart(2, "0"),
                year: card.exp_year,
              })}
            </div>
          </div>
          <button
            type="button"
            className="button secondary"
            disabled={onFile.isRemoving || !isHydrated}
            onClick={() => void onFile.remove()}
          >
            {t("remove")}
          </button>
        </div>
      ) : (
        <p className="empty" data-testid="saved-card">
          {t("none")}
        </p>
      )}
      <div style={{ marginTop: 12 }}>
        <NoticeLine notice={notice} />
      </div>
    </section>
  );
}
