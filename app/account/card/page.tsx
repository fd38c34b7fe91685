import { getTranslations } from "next-intl/server";
import { shopperPageCaller } from "@/app/_trpc/server";
import { env } from "@/server/platform/env";
import { SavedCardPanel } from "./saved-card-panel";
import { StripeCardSetup } from "./stripe-card-setup-lazy";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("account.card"))("metaTitle"),
});

/** The card assistants may charge for the person; read here, saved and removed from the browser through /api/trpc. */
export default async function CardPage() {
  const saved = await (await shopperPageCaller("/account/card")).account.getSavedCard();
  const t = await getTranslations("account.card");
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("lede")}</p>
      {/* card_entry says who takes the card (server/accounts/account-views.ts): Stripe's Payment Element (npm start requires its publishable key then), or the sandbox's test-card form. */}
      {saved.card_entry === "processor_form" ? (
        <StripeCardSetup initial={saved} publishableKey={env().STRIPE_PUBLISHABLE_KEY ?? ""} />
      ) : (
        <SavedCardPanel initial={saved} />
      )}
    </>
  );
}
