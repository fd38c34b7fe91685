import { pageCaller } from "@/app/_trpc/server";
import { SavedCardPanel } from "./saved-card-panel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Saved card · Shopping API" };

/** The card assistants may charge for the person; read here, saved and removed from the browser through /api/trpc. */
export default async function CardPage() {
  const saved = await (await pageCaller()).account.getSavedCard();
  return (
    <>
      <h1 className="page-title">Saved card</h1>
      <p className="muted">
        Assistants you connect pay for what they buy for you with this card, within your spending limits. Until you save one, they cannot buy at all.
      </p>
      <SavedCardPanel initial={saved} />
    </>
  );
}
