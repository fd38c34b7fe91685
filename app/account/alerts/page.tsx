import { getTranslations } from "next-intl/server";
import { shopperPageCaller } from "@/app/_trpc/server";
import { AlertsPanel } from "./alerts-panel";

export const dynamic = "force-dynamic";

export const generateMetadata = async () => ({
  title: `${(await getTranslations("watches.alerts"))("title")} · Shopping API`,
});

/** The signed-in person's price alerts; read here, stopped and refreshed from the browser through /api/trpc. */
export default async function AlertsPage() {
  const t = await getTranslations("watches.alerts");
  const initial = await (
    await shopperPageCaller("/account/alerts")
  ).account.listMyAlerts({ page: 1 });
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <AlertsPanel initial={initial} />
    </>
  );
}
