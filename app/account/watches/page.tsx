import { getTranslations } from "next-intl/server";
import { shopperPageCaller } from "@/app/_trpc/server";
import { WatchesPanel } from "./watches-panel";

export const dynamic = "force-dynamic";

export const generateMetadata = async () => ({
  title: `${(await getTranslations("watches.account"))("title")} · Shopping API`,
});

/** The price watches the person's assistants set; read here, cancelled and refreshed from the browser through /api/trpc. */
export default async function WatchesPage() {
  const t = await getTranslations("watches.account");
  const initial = await (
    await shopperPageCaller("/account/watches")
  ).account.listMyWatches({ page: 1 });
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <WatchesPanel initial={initial} />
    </>
  );
}
