"use client";
/**
 * The list of price watches on several items (any-of groups): each with where it stands, its total
 * at most, the assistant that set it and, in their order, its items (picture, size, condition,
 * store, price now, its own price or any price within the total, the item's price chart, and where
 * each stands), times in the person's zone (named once, under the list). Cancel calls the
 * dashboard procedure through @trpc/client and ends the whole watch, then the list is read again in
 * place (no reload); it is also refreshed every 15 s so a purchase made by a watch shows up.
 */
import { useLocale, useTranslations } from "next-intl";
import { dashboardClient } from "@/app/_trpc/client";
import { PriceChart } from "@/app/_components/price-chart";
import { WatchedItemCard } from "@/app/_components/watched-item";
import { watchOutcomeKey } from "@/server/core/messages";
import { PurchaseFate } from "../purchase-fate";
import { formatMoney, type Locale } from "@/server/core/locale";
import { parseCents } from "@/server/core/money";
import type { TMyWatchGroup, TMyWatchGroupsResponse } from "@/server/dashboard";
import { DashboardList } from "../dashboard-list";
import { EntryAction } from "../entry-action";
import { useDashboardList } from "../use-dashboard-list";
import { UntilOrSet } from "../until-or-set";

type Alternative = TMyWatchGroup["alternatives"][number];

/** A group's or an alternative's status (an alternative may also end item_sold). */
const statusTones: Partial<Record<Alternative["status"], string>> = {
  active: "warn",
  fulfilled: "ok",
  needs_you: "accent",
};

const read = (page: number) => dashboardClient.account.listMyWatchGroups.query({ page });

/** One of the watch's items: the item, its price chart, its own price, and where it stands (why it ended, when not the watch's own reason). */
function AlternativeRow({
  alternative,
  number,
  groupOutcome,
}: {
  alternative: Alternative;
  number: number;
  groupOutcome: string | null;
}) {
  const t = useTranslations("watchGroups.account");
  const w = useTranslations("watches");
  const locale = useLocale() as Locale;
  return (
    <li
      className="watch-alternative"
      data-testid="group-alternative"
      data-watch-id={alternative.price_watch_id}
      aria-label={t("alternative", { number, title: alternative.title })}
    >
      <span
        className={`badge ${statusTones[alternative.status] ?? ""}`}
        data-testid="alternative-status"
      >
        {w(`status.${alternative.status}`)}
      </span>
      <WatchedItemCard item={alternative.item} size={alternative.size} titleAs="h3" />
      <PriceChart chart={alternative.price_chart} />
      <dl className="facts">
        <dt>{w("limits.buyAt")}</dt>
        <dd>
          {alternative.any_price_within_total
            ? t("anyPrice")
            : w("limits.buyAtValue", {
                price: formatMoney(parseCents(alternative.max_price.amount), locale),
              })}
        </dd>
        {alternative.checkout_url ? (
          <>
            <dt>{w("account.payYourself")}</dt>
            <dd>
              <a href={alternative.checkout_url}>{w("account.payLink")}</a>
            </dd>
          </>
        ) : null}
        {alternative.outcome &&
        alternative.outcome !== "bought" &&
        alternative.outcome !== groupOutcome ? (
          <>
            <dt>{w("account.why")}</dt>
            <dd>{w(`why.${watchOutcomeKey(alternative.outcome)}`)}</dd>
          </>
        ) : null}
      </dl>
    </li>
  );
}

function GroupRow({
  group,
  timeZone,
  busy,
  onCancel,
}: {
  group: TMyWatchGroup;
  timeZone: string;
  busy: boolean;
  onCancel: (group: TMyWatchGroup) => void;
}) {
  const t = useTranslations("watchGroups.account");
  const w = useTranslations("watches");
  const locale = useLocale() as Locale;
  const heading = t("heading", { count: group.alternatives.length });
  const itemsId = `items-${group.price_watch_group_id}`;
  return (
    <li
      className="panel"
      data-testid="watch-group"
      data-group-id={group.price_watch_group_id}
      aria-label={heading}
    >
      <span className={`badge ${statusTones[group.status] ?? ""}`} data-testid="group-status">
        {w(`status.${group.status}`)}
      </span>
      <h2>{heading}</h2>
      <dl className="facts">
        <dt>{w("limits.totalAtMost")}</dt>
        <dd>
          {w("limits.totalAtMostValue", {
            total: formatMoney(parseCents(group.max_total.amount), locale),
          })}
        </dd>
        <dt>{w("account.assistant")}</dt>
        <dd>{group.assistant}</dd>
        {group.order_number ? (
          <>
            <dt>{w("account.order")}</dt>
            <dd data-testid="group-order">{group.order_number}</dd>
          </>
        ) : null}
        <PurchaseFate purchase={group.purchase} />
        <UntilOrSet entry={group} timeZone={timeZone} />
        {group.outcome && group.outcome !== "bought" ? (
          <>
            <dt>{w("account.why")}</dt>
            <dd>
              {group.outcome === "item_sold"
                ? t("why.item_sold")
                : w(`why.${watchOutcomeKey(group.outcome)}`)}
            </dd>
          </>
        ) : null}
      </dl>
      <p className="muted small" id={itemsId}>
        {t("items", { count: group.alternatives.length })}
      </p>
      <ol className="watch-alternatives" aria-labelledby={itemsId}>
        {group.alternatives.map((alternative, index) => (
          <AlternativeRow
            key={alternative.price_watch_id}
            alternative={alternative}
            number={index + 1}
            groupOutcome={group.outcome}
          />
        ))}
      </ol>
      {group.can_cancel ? (
        <EntryAction label={t("cancel")} busy={busy} onClick={() => onCancel(group)} />
      ) : null}
    </li>
  );
}

export function WatchGroupsPanel({ initial }: { initial: TMyWatchGroupsResponse }) {
  const { list, busy, cancel, frame } = useDashboardList(initial, read, "watchGroups.account");

  const cancelGroup = (group: TMyWatchGroup) =>
    cancel(() =>
      dashboardClient.account.cancelMyWatchGroup.mutate({
        price_watch_group_id: group.price_watch_group_id,
      }),
    );

  return (
    <DashboardList frame={frame} count={list.groups.length} emptyTestId="no-watch-groups">
      {list.groups.map((group) => (
        <GroupRow
          key={group.price_watch_group_id}
          group={group}
          timeZone={list.time_zone}
          busy={busy}
          onCancel={cancelGroup}
        />
      ))}
    </DashboardList>
  );
}
