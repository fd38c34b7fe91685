"use client";
/**
 * The price-watch list: each watch with its item (picture, size, condition, store, price now), its
 * limits and where it stands (an item of a watch on several items links to that watch's page),
 * times in the person's zone (named once, under the list). Cancel calls the dashboard procedure
 * through @trpc/client, then the list is read again in place (no reload); it is also refreshed
 * every 15 s so a purchase made by a watch shows up.
 */
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { dashboardClient } from "@/app/_trpc/client";
import { PriceChart } from "@/app/_components/price-chart";
import { WatchedItemCard } from "@/app/_components/watched-item";
import { watchConditionKey, watchOutcomeKey } from "@/server/core/messages";
import { PurchaseFate } from "../purchase-fate";
import { formatMoney, formatTime, type Locale } from "@/server/core/locale";
import { parseCents } from "@/server/core/money";
import type { TMyWatch, TMyWatchesResponse } from "@/server/dashboard";
import { DashboardList } from "../dashboard-list";
import { EntryAction } from "../entry-action";
import { useDashboardList } from "../use-dashboard-list";
import { UntilOrSet } from "../until-or-set";

const read = (page: number) => dashboardClient.account.listMyWatches.query({ page });

const statusTones: Partial<Record<TMyWatch["status"], string>> = {
  active: "warn",
  fulfilled: "ok",
  needs_you: "accent",
};

/** The watch's last evaluation (when, the price, the total) and, when it did not buy, why in plain words. */
function LastEvaluation({
  evaluation,
  timeZone,
}: {
  evaluation: NonNullable<TMyWatch["last_evaluation"]>;
  timeZone: string;
}) {
  const t = useTranslations("watches.lastCheck");
  const locale = useLocale() as Locale;
  const money = (amount: string) => formatMoney(parseCents(amount), locale);
  const time = formatTime(new Date(evaluation.evaluated_at), locale, timeZone);
  return (
    <>
      <dt>{t("label")}</dt>
      <dd data-testid="watch-last-evaluation">
        {evaluation.total
          ? t("valueWithTotal", {
              time,
              price: money(evaluation.price.amount),
              total: money(evaluation.total.amount),
            })
          : t("value", { time, price: money(evaluation.price.amount) })}
      </dd>
      {evaluation.outcome !== "bought" && evaluation.failed_condition ? (
        <>
          <dt>{t("whyNot")}</dt>
          <dd data-testid="watch-why-not">
            {t(`condition.${watchConditionKey(evaluation.failed_condition)}`)}
          </dd>
        </>
      ) : null}
    </>
  );
}

function WatchRow({
  watch,
  timeZone,
  busy,
  onCancel,
}: {
  watch: TMyWatch;
  timeZone: string;
  busy: boolean;
  onCancel: (watch: TMyWatch) => void;
}) {
  const t = useTranslations("watches");
  const locale = useLocale() as Locale;
  const money = (amount: string) => formatMoney(parseCents(amount), locale);
  return (
    <li
      className="panel"
      data-testid="watch"
      data-watch-id={watch.price_watch_id}
      aria-label={t("account.label", { title: watch.title })}
    >
      <span className={`badge ${statusTones[watch.status] ?? ""}`} data-testid="watch-status">
        {t(`status.${watch.status}`)}
      </span>
      <WatchedItemCard item={watch.item} size={watch.size} titleAs="h2" />
      <PriceChart chart={watch.price_chart} />
      <dl className="facts">
        <dt>{t("limits.buyAt")}</dt>
        <dd>{t("limits.buyAtValue", { price: money(watch.max_price.amount) })}</dd>
        <dt>{t("limits.totalAtMost")}</dt>
        <dd>{t("limits.totalAtMostValue", { total: money(watch.max_total.amount) })}</dd>
        <dt>{t("account.assistant")}</dt>
        <dd>{watch.assistant}</dd>
        {watch.price_watch_group_id ? (
          <>
            <dt>{t("account.partOf")}</dt>
            <dd data-testid="watch-group-link">
              {t.rich("account.partOfValue", {
                link: (chunks) => <Link href="/account/watch-groups">{chunks}</Link>,
              })}
            </dd>
          </>
        ) : null}
        {watch.order_number ? (
          <>
            <dt>{t("account.order")}</dt>
            <dd data-testid="watch-order">{watch.order_number}</dd>
          </>
        ) : null}
        <PurchaseFate purchase={watch.purchase} />
        {watch.checkout_url ? (
          <>
            <dt>{t("account.payYourself")}</dt>
            <dd>
              <a href={watch.checkout_url}>{t("account.payLink")}</a>
            </dd>
          </>
        ) : null}
        <UntilOrSet entry={watch} timeZone={timeZone} />
        {watch.last_evaluation ? (
          <LastEvaluation evaluation={watch.last_evaluation} timeZone={timeZone} />
        ) : null}
        {watch.outcome && watch.outcome !== "bought" ? (
          <>
            <dt>{t("account.why")}</dt>
            <dd>{t(`why.${watchOutcomeKey(watch.outcome)}`)}</dd>
          </>
        ) : null}
      </dl>
      {watch.can_cancel ? (
        <EntryAction label={t("account.cancel")} busy={busy} onClick={() => onCancel(watch)} />
      ) : null}
    </li>
  );
}

export function WatchesPanel({ initial }: { initial: TMyWatchesResponse }) {
  const { list, busy, cancel, frame } = useDashboardList(initial, read, "watches.account");

  const cancelWatch = (watch: TMyWatch) =>
    cancel(() =>
      dashboardClient.account.cancelMyWatch.mutate({ price_watch_id: watch.price_watch_id }),
    );

  return (
    <DashboardList frame={frame} count={list.watches.length} emptyTestId="no-watches">
      {list.watches.map((watch) => (
        <WatchRow
          key={watch.price_watch_id}
          watch={watch}
          timeZone={list.time_zone}
          busy={busy}
          onCancel={cancelWatch}
        />
      ))}
    </DashboardList>
  );
}
