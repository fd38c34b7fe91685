import { getTranslations } from "next-intl/server";
import { shopperPageCaller } from "@/app/_trpc/server";
import { WatchGroupsPanel } from "./watch-groups-panel";

export const dynamic = "force-dynamic";

export const generateMetadata = async () => ({
  title: `${(await getTranslations("watchGroups.account"))("title")} · Shopping API`,
});

/** The price watches on several items (any-of groups) the person's assistants set; read here, cancelled and refreshed from the browser through /api/trpc. */
export default async function WatchGroupsPage() {
  const t = await getTranslations("watchGroups.account");
  const initial = await (
    await shopperPageCaller("/account/watch-groups")
  ).account.listMyWatchGroups({ page: 1 });
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <WatchGroupsPanel initial={initial} />
    </>
  );
}
