"use client";
/**
 * The price alert list. Stop calls the dashboard procedure through @trpc/client, then the list is
 * read again in place (no reload).
 */
import { useState } from "react";
import { dashboardClient } from "@/app/_trpc/client";
import type { TPriceAlert, TPriceAlertList } from "@/server/price-alerts";
import { dollars } from "../limits/dollars";
import { NoticeLine } from "../notice-line";
import { useAction } from "../use-action";

const statusLabels: Record<TPriceAlert["status"], string> = {
  active: "Watching",
  notified: "Price reached: emailed",
  stopped: "Stopped",
};
const statusTones: Partial<Record<TPriceAlert["status"], string>> = {
  active: "accent",
  notified: "ok",
};

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function AlertRow({
  alert,
  busy,
  onStop,
}: {
  alert: TPriceAlert;
  busy: boolean;
  onStop: (alert: TPriceAlert) => void;
}) {
  return (
    <li
      className="panel"
      data-testid="price-alert"
      data-alert-id={alert.price_alert_id}
      aria-label={`Alert on ${alert.title}`}
    >
      <h2>
        <a href={alert.url}>{alert.title}</a>{" "}
        <span className={`badge ${statusTones[alert.status] ?? ""}`} data-testid="alert-status">
          {statusLabels[alert.status]}
        </span>
      </h2>
      <dl className="facts">
        <dt>Your price</dt>
        <dd>{dollars(alert.target_price.amount)} CAD</dd>
        <dt>Price now</dt>
        <dd>{dollars(alert.current_price.amount)} CAD</dd>
        <dt>Set</dt>
        <dd>{when(alert.created_at)}</dd>
        {alert.notified_at ? (
          <>
            <dt>Emailed</dt>
            <dd>
              {when(alert.notified_at)} at {dollars(alert.notified_price!.amount)} CAD
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
            Stop alert
          </button>
        </div>
      ) : null}
    </li>
  );
}

export function AlertsPanel({ initial }: { initial: TPriceAlertList }) {
  const [list, setList] = useState(initial);
  const { notice, busy, run } = useAction();
  const page = list.pagination.page;

  const load = async (wanted: number) =>
    setList(await dashboardClient.account.listMyAlerts.query({ page: wanted }));

  const stop = (alert: TPriceAlert) =>
    void run(async () => {
      await dashboardClient.account.stopMyAlert.mutate({ price_alert_id: alert.price_alert_id });
      await load(page);
      return { tone: "ok", text: `The alert on ${alert.title} is stopped: it will not email you.` };
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
          {page === 1 ? "No app has set a price alert for you yet." : "No more alerts."}
        </p>
      ) : (
        <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {list.data.map((alert) => (
            <AlertRow key={alert.price_alert_id} alert={alert} busy={busy} onStop={stop} />
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
            Newer
          </button>
          <span className="hint">
            Page {page} of {list.pagination.last_page}
          </span>
          <button
            type="button"
            className="button secondary"
            disabled={busy || page >= list.pagination.last_page}
            onClick={() => goTo(page + 1)}
          >
            Older
          </button>
        </div>
      ) : null}
    </>
  );
}
