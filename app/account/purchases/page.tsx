import { shopperPageCaller } from "@/app/_trpc/server";
import { PurchasesPanel } from "./purchases-panel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Assistant purchases · Shopping API" };

/** The assistant purchases made for the signed-in person; read here, cancelled and refreshed from the browser through /api/trpc. */
export default async function PurchasesPage() {
  const initial = await (
    await shopperPageCaller("/account/purchases")
  ).account.listMyPurchases({ page: 1 });
  return (
    <>
      <h1 className="page-title">Assistant purchases</h1>
      <p className="muted">
        What your connected assistants bought for you with your saved card. A held purchase is
        charged when its time runs out; until then you can cancel it and nothing is charged.
      </p>
      <PurchasesPanel initial={initial} />
    </>
  );
}
