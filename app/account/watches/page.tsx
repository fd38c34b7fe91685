import { shopperPageCaller } from "@/app/_trpc/server";
import { WatchesPanel } from "./watches-panel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Price watches · Shopping API" };

/** The price watches the person's assistants set; read here, cancelled and refreshed from the browser through /api/trpc. */
export default async function WatchesPage() {
  const initial = await (
    await shopperPageCaller("/account/watches")
  ).account.listMyWatches({ page: 1 });
  return (
    <>
      <h1 className="page-title">Price watches</h1>
      <p className="muted">
        Items your connected assistants watch for you: when the price falls to your price and the
        total fits, the item is bought once with your saved card (charged 24 hours later unless you
        cancel that purchase). Cancel a watch at any time before it buys.
      </p>
      <WatchesPanel initial={initial} />
    </>
  );
}
