import { getTranslations } from "next-intl/server";
import { shopperPageCaller } from "@/app/_trpc/server";
import { SpendingSettingsPanel } from "./spending-settings-panel";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("account.limits"))("metaTitle"),
});

/** Spending limits and the pause switch for assistant purchases; read here, saved from the browser through /api/trpc. */
export default async function LimitsPage() {
  const caller = await shopperPageCaller("/account/limits");
  const [settings, preferences] = await Promise.all([
    caller.account.getSpendingSettings(),
    caller.account.getPreferences(),
  ]);
  const t = await getTranslations("account.limits");
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("lede")}</p>
      <SpendingSettingsPanel initial={settings} timeZone={preferences.time_zone} />
    </>
  );
}
