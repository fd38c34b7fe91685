import { useTranslations } from "next-intl";

/** Newer / Older buttons under a dashboard list, shown only when there is more than one page. */
export function Pager({
  page,
  hasMore,
  busy,
  onGoTo,
  labels = "account.pager",
}: {
  page: number;
  hasMore: boolean;
  busy: boolean;
  onGoTo: (page: number) => void;
  /** Where its words are (newer, older, page): the watch lists' agree with "surveillances" in French. */
  labels?: "account.pager" | "watches.account";
}) {
  const t = useTranslations(labels);
  if (page === 1 && !hasMore) return null;
  return (
    <div className="button-row">
      <button
        type="button"
        className="button secondary"
        disabled={busy || page === 1}
        onClick={() => onGoTo(page - 1)}
      >
        {t("newer")}
      </button>
      <span className="hint">{t("page", { page })}</span>
      <button
        type="button"
        className="button secondary"
        disabled={busy || !hasMore}
        onClick={() => onGoTo(page + 1)}
      >
        {t("older")}
      </button>
    </div>
  );
}
