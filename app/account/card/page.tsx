import { shopperPageCaller } from "@/app/_trpc/server";
import { env } from "@/server/env";
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
        Assistants you connect pay for what they buy for you with this card, within your spending limits. Until you save one, they cannot buy at all.
      </p>
      {/* With Stripe (always in production) only Stripe's Payment Element takes the card; the sandbox keeps its test-card form. */}
      {env().PAYMENT_PROCESSOR === "stripe" && env().STRIPE_PUBLISHABLE_KEY ? <StripeCardSetup initial={saved} publishableKey={env().STRIPE_PUBLISHABLE_KEY!} /> : <SavedCardPanel initial={saved} />}
    </>
  );
}
