import { getTranslations } from "next-intl/server";
import { shopperPageCaller } from "@/app/_trpc/server";
import { SearchWatchesPanel } from "./search-watches-panel";

export const dynamic = "force-dynamic";

export const generateMetadata = async () => ({
  title: `${(await getTranslations("searchWatches.account"))("title")} · Shopping API`,
});

/** The searches the person's apps watch for them (notify or buy); read here, cancelled and refreshed from the browser through /api/trpc. */
export default async function SearchWatchesPage() {
  const t = await getTranslations("searchWatches.account");
  const initial = await (
    await shopperPageCaller("/account/search-watches")
  ).account.listMySearchWatches({ page: 1 });
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <SearchWatchesPanel initial={initial} />
    </>
  );
}
