"use client";
/**
 * The price alert list: each alert with its item (picture, condition, store, price now), its target
 * and when it was set and emailed, in the person's zone (named once, under the list). Stop calls the
 * dashboard procedure through @trpc/client, then the list is read again in place (no reload).
 */
import { useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { dashboardClient } from "@/app/_trpc/client";
import { PriceChart } from "@/app/_components/price-chart";
import { WatchedItemCard } from "@/app/_components/watched-item";
import { ZoneNote } from "@/app/_components/zone-note";
import { formatMoney, formatTime, type Locale } from "@/server/core/locale";
import { parseCents } from "@/server/core/money";
import type { TMyAlert, TMyAlertsResponse } from "@/server/dashboard";
import { NoticeLine } from "../notice-line";
import { useAction } from "../use-action";

const statusTones: Partial<Record<TMyAlert["status"], string>> = {
  active: "accent",
  notified: "ok",
};

function AlertRow({
  alert,
  timeZone,
  busy,
  onStop,
}: {
  alert: TMyAlert;
  timeZone: string;
  busy: boolean;
  onStop: (alert: TMyAlert) => void;
}) {
  const t = useTranslations("watches.alerts");
  const locale = useLocale() as Locale;
  const money = (amount: string) => formatMoney(parseCents(amount), locale);
  const time = (iso: string) => formatTime(new Date(iso), locale, timeZone);
  return (
    <li
      className="panel"
      data-testid="price-alert"
      data-alert-id={alert.price_alert_id}
      aria-label={t("label", { title: alert.title })}
    >
      <span className={`badge ${statusTones[alert.status] ?? ""}`} data-testid="alert-status">
        {t(`status.${alert.status}`)}
      </span>
      <WatchedItemCard item={alert.item} titleAs="h2" />
      <PriceChart chart={alert.price_chart} />
      <dl className="facts">
        <dt>{t("yourPrice")}</dt>
        <dd>{money(alert.target_price.amount)}</dd>
        <dt>{t("set")}</dt>
        <dd>{time(alert.created_at)}</dd>
        {alert.notified_at ? (
          <>
            <dt>{t("emailed")}</dt>
            <dd>
              {t("emailedValue", {
                time: time(alert.notified_at),
                price: money(alert.notified_price!.amount),
              })}
            </dd>
          </>
        ) : null}
      </dl>
      {alert.status === "active" ? (
        <div className="button-row" style={{ marginTop: 12 }}>
          <button
            type="button"
            className="button secondary"
            disabled={busy}
            onClick={() => onStop(alert)}
          >
            {t("stop")}
          </button>
        </div>
      ) : null}
    </li>
  );
}

export function AlertsPanel({ initial }: { initial: TMyAlertsResponse }) {
  const t = useTranslations("watches");
  const [list, setList] = useState(initial);
  const { notice, busy, run } = useAction();
  const page = list.pagination.page;

  const load = async (wanted: number) =>
    setList(await dashboardClient.account.listMyAlerts.query({ page: wanted }));

  const stop = (alert: TMyAlert) =>
    void run(async () => {
      try {
        await dashboardClient.account.stopMyAlert.mutate({
          price_alert_id: alert.price_alert_id,
        });
      } catch {
        return { tone: "error", text: t("alerts.stopFailed") };
      }
      await load(page);
      return { tone: "ok", text: t("alerts.stopped", { title: alert.title }) };
    });

  const goTo = (wanted: number) =>
    void run(async () => {
      await load(wanted);
      return null;
    });

  return (
    <>
      <NoticeLine notice={notice} />
      {list.data.length === 0 ? (
        <p className="panel" data-testid="no-alerts">
          {page === 1 ? t("alerts.none") : t("alerts.noMore")}
        </p>
      ) : (
        <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {list.data.map((alert) => (
            <AlertRow
              key={alert.price_alert_id}
              alert={alert}
              timeZone={list.time_zone}
              busy={busy}
              onStop={stop}
            />
          ))}
        </ul>
      )}
      {list.pagination.last_page > 1 ? (
        <div className="button-row">
          <button
            type="button"
            className="button secondary"
            disabled={busy || page === 1}
            onClick={() => goTo(page - 1)}
          >
            {t("account.newer")}
          </button>
          <span className="hint">
            {t("account.pageOf", { page, last: list.pagination.last_page })}
          </span>
          <button
            type="button"
            className="button secondary"
            disabled={busy || page >= list.pagination.last_page}
            onClick={() => goTo(page + 1)}
          >
            {t("account.older")}
          </button>
        </div>
      ) : null}
      {list.data.length > 0 ? <ZoneNote timeZone={list.time_zone} /> : null}
    </>
  );
}
