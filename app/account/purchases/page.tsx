import { getTranslations } from "next-intl/server";
import { ZoneNote } from "@/app/_components/zone-note";
import { shopperPageCaller } from "@/app/_trpc/server";
import { PurchasesPanel } from "./purchases-panel";

export const dynamic = "force-dynamic";

export const generateMetadata = async () => ({
  title: (await getTranslations("purchases.dashboard"))("metaTitle"),
});

/** The assistant purchases made for the signed-in person; read here, cancelled and refreshed from the browser through /api/trpc. Times in the person's zone, named once. */
export default async function PurchasesPage() {
  const initial = await (
    await shopperPageCaller("/account/purchases")
  ).account.listMyPurchases({ page: 1 });
  const t = await getTranslations("purchases.dashboard");
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("lede")}</p>
      <PurchasesPanel initial={initial} />
      <ZoneNote timeZone={initial.time_zone} />
    </>
  );
}
