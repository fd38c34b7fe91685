import { shopperPageCaller } from "@/app/_trpc/server";
import { env } from "@/server/platform/env";
import { SavedCardPanel } from "./saved-card-panel";
import { StripeCardSetup } from "./stripe-card-setup-lazy";

export const dynamic = "force-dynamic";
export const metadata = { title: "Saved card · Shopping API" };

/** The card assistants may charge for the person; read here, saved and removed from the browser through /api/trpc. */
export default async function CardPage() {
  const saved = await (await shopperPageCaller("/account/card")).account.getSavedCard();
  return (
    <>
      <h1 className="page-title">Saved card</h1>
      <p className="muted">
        Assistants you connect pay for what they buy for you with this card, within your spending
        limits. Until you save one, they cannot buy at all.
      </p>
      {/* card_entry says who takes the card (server/accounts/account-views.ts): Stripe's Payment Element (npm start requires its publishable key then), or the sandbox's test-card form. */}
      {saved.card_entry === "processor_form" ? (
        <StripeCardSetup initial={saved} publishableKey={env().STRIPE_PUBLISHABLE_KEY ?? ""} />
      ) : (
        <SavedCardPanel initial={saved} />
      )}
    </>
  );
}
