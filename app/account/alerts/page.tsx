import { shopperPageCaller } from "@/app/_trpc/server";
import { AlertsPanel } from "./alerts-panel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Price alerts · Shopping API" };

/** The signed-in person's price alerts; read here, stopped and refreshed from the browser through /api/trpc. */
export default async function AlertsPage() {
  const initial = await (
    await shopperPageCaller("/account/alerts")
  ).account.listMyAlerts({ page: 1 });
  return (
    <>
      <h1 className="page-title">Price alerts</h1>
      <p className="muted">
        Alerts your connected apps set for you. We email you once when an item drops to your price;
        an alert never buys anything. Stop one and it sends nothing.
      </p>
      <AlertsPanel initial={initial} />
    </>
  );
}
