"use client";
/**
 * The search-watch list: each saved search with where it stands, what it does (emails new matches,
 * or buys the first one once within its total), its filters, how many items matched and were
 * emailed, the app that set it, and the item and order a buying watch bought; times in the person's
 * zone (named once, under the list). Cancel calls the dashboard procedure through @trpc/client,
 * then the list is read again in place (no reload); it is also refreshed every 15 s so a match or a
 * purchase shows up.
 */
import Link from "next/link";
import { Fragment } from "react";
import { useLocale, useTranslations } from "next-intl";
import { dashboardClient } from "@/app/_trpc/client";
import { WatchedItemCard } from "@/app/_components/watched-item";
import { watchOutcomeKey } from "@/server/core/messages";
import { formatMoney, type Locale } from "@/server/core/locale";
import { parseCents } from "@/server/core/money";
import type { TMySearchWatch, TMySearchWatchesResponse } from "@/server/dashboard";
import { DashboardList } from "../dashboard-list";
import { EntryAction } from "../entry-action";
import { useDashboardList } from "../use-dashboard-list";
import { UntilOrSet } from "../until-or-set";

type Filters = TMySearchWatch["filters"];

const statusTones: Partial<Record<TMySearchWatch["status"], string>> = {
  active: "warn",
  fulfilled: "ok",
  needs_you: "accent",
};

const read = (page: number) => dashboardClient.account.listMySearchWatches.query({ page });

/** The search's name as its entry's heading: its words, else its category, brands or store. */
function useSearchName(filters: Filters) {
  const t = useTranslations("searchWatches.account");
  if (filters.q) return t("quoted", { q: filters.q });
  return filters.category ?? (filters.brand.join(" / ") || filters.store || t("anySearch"));
}

/** Each filter the search was given, as a term and its value. */
function FilterFacts({ filters }: { filters: Filters }) {
  const t = useTranslations("searchWatches.account");
  const locale = useLocale() as Locale;
  const money = (price: { amount: string } | null) =>
    price ? formatMoney(parseCents(price.amount), locale) : null;
  const [min, max] = [money(filters.min_price), money(filters.max_price)];
  const price =
    min && max
      ? t("priceRange", { min, max })
      : min
        ? t("priceFrom", { min })
        : max
          ? t("priceUpTo", { max })
          : null;
  const given = [
    ["q", filters.q],
    ["category", filters.category],
    ["size", filters.size.join(", ")],
    ["color", filters.color.join(", ")],
    ["brand", filters.brand.join(", ")],
    ["store", filters.store],
    ["price", price],
  ] as const;
  return given.map(([name, value]) =>
    value ? (
      <Fragment key={name}>
        <dt>{t(`filter.${name}`)}</dt>
        <dd>{value}</dd>
      </Fragment>
    ) : null,
  );
}

function SearchWatchRow({
  watch,
  timeZone,
  busy,
  onCancel,
}: {
  watch: TMySearchWatch;
  timeZone: string;
  busy: boolean;
  onCancel: (watch: TMySearchWatch) => void;
}) {
  const t = useTranslations("searchWatches.account");
  const w = useTranslations("watches");
  const locale = useLocale() as Locale;
  const name = useSearchName(watch.filters);
  return (
    <li
      className="panel"
      data-testid="search-watch"
      data-search-watch-id={watch.search_watch_id}
      aria-label={t("label", { search: name })}
    >
      <span className={`badge ${statusTones[watch.status] ?? ""}`} data-testid="search-status">
        {w(`status.${watch.status}`)}
      </span>
      <h2>{name}</h2>
      <dl className="facts">
        <dt>{t("does")}</dt>
        <dd>{t(`mode.${watch.mode}`)}</dd>
        <FilterFacts filters={watch.filters} />
        {watch.max_total ? (
          <>
            <dt>{w("limits.totalAtMost")}</dt>
            <dd>
              {w("limits.totalAtMostValue", {
                total: formatMoney(parseCents(watch.max_total.amount), locale),
              })}
            </dd>
          </>
        ) : null}
        <dt>{t("matches")}</dt>
        <dd data-testid="search-matches">{t("count", { count: watch.matches_count })}</dd>
        {watch.mode === "notify" ? (
          <>
            <dt>{t("emailed")}</dt>
            <dd data-testid="search-emailed">{t("count", { count: watch.notified_count })}</dd>
          </>
        ) : null}
        <dt>{t("setBy")}</dt>
        <dd>{watch.assistant}</dd>
        {watch.order_number ? (
          <>
            <dt>{t("purchase")}</dt>
            <dd data-testid="search-order">
              {t.rich("purchaseValue", {
                order: watch.order_number,
                link: (chunks) => <Link href="/account/purchases">{chunks}</Link>,
              })}
            </dd>
          </>
        ) : null}
        <UntilOrSet entry={watch} timeZone={timeZone} />
        {watch.outcome && watch.outcome !== "bought" ? (
          <>
            <dt>{w("account.why")}</dt>
            <dd>
              {watch.outcome === "expired"
                ? t("why.expired")
                : w(`why.${watchOutcomeKey(watch.outcome)}`)}
            </dd>
          </>
        ) : null}
      </dl>
      {watch.item ? (
        <>
          <p className="muted small">{t("item")}</p>
          <WatchedItemCard item={watch.item} titleAs="h3" />
        </>
      ) : null}
      {watch.can_cancel ? (
        <EntryAction label={t("cancel")} busy={busy} onClick={() => onCancel(watch)} />
      ) : null}
    </li>
  );
}

export function SearchWatchesPanel({ initial }: { initial: TMySearchWatchesResponse }) {
  const { list, busy, cancel, frame } = useDashboardList(initial, read, "searchWatches.account");

  const cancelWatch = (watch: TMySearchWatch) =>
    cancel(async () => {
      const result = await dashboardClient.account.cancelMySearchWatch.mutate({
        search_watch_id: watch.search_watch_id,
      });
      // One buying now or ended is answered as it is: not cancelled, shown as a refusal.
      if (result.status !== "cancelled") throw new Error(`search watch ${result.status}`);
      return result;
    });

  return (
    <DashboardList frame={frame} count={list.search_watches.length} emptyTestId="no-search-watches">
      {list.search_watches.map((watch) => (
        <SearchWatchRow
          key={watch.search_watch_id}
          watch={watch}
          timeZone={list.time_zone}
          busy={busy}
          onCancel={cancelWatch}
        />
      ))}
    </DashboardList>
  );
}
