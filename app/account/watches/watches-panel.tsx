"use client";
/**
 * The price-watch list. Cancel calls the dashboard procedure through @trpc/client, then the list is
 * read again in place (no reload); it is also refreshed every 15 s so a purchase made by a watch
 * shows up.
 */
import { useCallback, useEffect, useState } from "react";
import { dashboardClient } from "@/app/_trpc/client";
import type { TMyWatch, TMyWatchesResponse } from "@/server/dashboard";
import { dollars } from "../limits/dollars";
import { NoticeLine } from "../notice-line";
import { useAction } from "../use-action";
import { Pager } from "../pager";

const refreshMs = 15_000;

const statusLabels: Record<TMyWatch["status"], string> = {
  active: "Watching",
  executing: "Buying now",
  fulfilled: "Bought",
  item_sold: "Sold to someone else",
  needs_you: "Needs you",
  cancelled: "Cancelled",
  expired: "Ended",
};
const statusTones: Partial<Record<TMyWatch["status"], string>> = {
  active: "warn",
  fulfilled: "ok",
  needs_you: "accent",
};

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function WatchRow({
  watch,
  busy,
  onCancel,
}: {
  watch: TMyWatch;
  busy: boolean;
  onCancel: (watch: TMyWatch) => void;
}) {
  return (
    <li
      className="panel"
      data-testid="watch"
      data-watch-id={watch.price_watch_id}
      aria-label={`Price watch on ${watch.title}`}
    >
      <h2>
        {watch.title}{" "}
        <span className={`badge ${statusTones[watch.status] ?? ""}`} data-testid="watch-status">
          {statusLabels[watch.status]}
        </span>
      </h2>
      <dl className="facts">
        <dt>Price now</dt>
        <dd data-testid="watch-current-price">{dollars(watch.current_price.amount)} CAD</dd>
        <dt>Buy at</dt>
        <dd>{dollars(watch.max_price.amount)} CAD or less</dd>
        <dt>Total at most</dt>
        <dd>{dollars(watch.max_total.amount)} CAD with shipping and tax</dd>
        <dt>Assistant</dt>
        <dd>{watch.assistant}</dd>
        {watch.order_number ? (
          <>
            <dt>Order</dt>
            <dd data-testid="watch-order">{watch.order_number}</dd>
          </>
        ) : null}
        {watch.checkout_url ? (
          <>
            <dt>Pay yourself</dt>
            <dd>
              <a href={watch.checkout_url}>Review and pay</a>
            </dd>
          </>
        ) : null}
        <dt>{watch.status === "active" || watch.status === "executing" ? "Until" : "Set"}</dt>
        <dd>
          {when(
            watch.status === "active" || watch.status === "executing"
              ? watch.expires_at
              : watch.created_at,
          )}
        </dd>
        {watch.outcome && watch.outcome !== "bought" ? (
          <>
            <dt>Why</dt>
            <dd>{watch.outcome.replaceAll("_", " ")}</dd>
          </>
        ) : null}
      </dl>
      {watch.can_cancel ? (
        <div className="button-row" style={{ marginTop: 12 }}>
          <button
            type="button"
            className="button secondary"
            disabled={busy}
            onClick={() => onCancel(watch)}
          >
            Cancel watch
          </button>
        </div>
      ) : null}
    </li>
  );
}

export function WatchesPanel({ initial }: { initial: TMyWatchesResponse }) {
  const [list, setList] = useState(initial);
  const { notice, busy, run } = useAction();

  const load = useCallback(
    async (page: number) => setList(await dashboardClient.account.listMyWatches.query({ page })),
    [],
  );

  useEffect(() => {
    const timer = setInterval(() => void load(list.page).catch(() => undefined), refreshMs);
    return () => clearInterval(timer);
  }, [load, list.page]);

  const cancel = (watch: TMyWatch) =>
    run(async () => {
      try {
        const result = await dashboardClient.account.cancelMyWatch.mutate({
          price_watch_id: watch.price_watch_id,
        });
        return {
          tone: "ok",
          text: result.already_cancelled
            ? "This watch was already cancelled."
            : "The watch is cancelled: nothing will be bought.",
        };
      } finally {
        await load(list.page).catch(() => undefined);
      }
    });

  const goTo = (page: number) =>
    run(async () => {
      await load(page);
      return null;
    });

  return (
    <>
      <NoticeLine notice={notice} />
      {list.watches.length === 0 ? (
        <p className="panel" data-testid="no-watches">
          {list.page === 1 ? "No assistant has set a price watch for you yet." : "No more watches."}
        </p>
      ) : (
        <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {list.watches.map((watch) => (
            <WatchRow
              key={watch.price_watch_id}
              watch={watch}
              busy={busy}
              onCancel={(chosen) => void cancel(chosen)}
            />
          ))}
        </ul>
      )}
      <Pager
        page={list.page}
        hasMore={list.has_more}
        busy={busy}
        onGoTo={(page) => void goTo(page)}
      />
    </>
  );
}
