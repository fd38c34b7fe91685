"use client";
/**
 * The sandbox's card page: the saved card (CardOnFile) and SandboxCardForm, which takes the test
 * cards. With Stripe the page shows StripeCardSetup instead: only Stripe's form takes a card number.
 */
import { useTranslations } from "next-intl";
import type { TSavedCardResponse } from "@/server/accounts";
import { CardOnFile, useCardOnFile } from "./card-on-file";
import { SandboxCardForm } from "./sandbox-card-form";

export function SavedCardPanel({ initial }: { initial: TSavedCardResponse }) {
  // What is saved or removed shows beside the card; a refused save shows in the form.
  const onFile = useCardOnFile(initial.card);
  const t = useTranslations("account.card");
  return (
    <>
      <CardOnFile onFile={onFile} />
      <section className="panel" aria-labelledby="card-form-title">
        <h2 id="card-form-title">{onFile.card ? t("replaceTitle") : t("saveTitle")}</h2>
        <SandboxCardForm
          replacing={onFile.card !== null}
          disabled={onFile.isRemoving}
          onSaved={onFile.saved}
        />
      </section>
    </>
  );
}
