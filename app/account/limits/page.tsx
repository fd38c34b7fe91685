import { shopperPageCaller } from "@/app/_trpc/server";
import { SpendingSettingsPanel } from "./spending-settings-panel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Spending limits · Shopping API" };

/** Spending limits and the pause switch for assistant purchases; read here, saved from the browser through /api/trpc. */
export default async function LimitsPage() {
  const settings = await (await shopperPageCaller("/account/limits")).account.getSpendingSettings();
  return (
    <>
      <h1 className="page-title">Spending limits</h1>
      <p className="muted">
        Assistants you connect can buy for you only within these limits, in Canadian dollars. Until
        you set both, they cannot buy at all.
      </p>
      <SpendingSettingsPanel initial={settings} />
    </>
  );
}
