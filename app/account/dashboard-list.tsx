/**
 * A dashboard list of standing orders as its page shows it: the last action's notice, the entries
 * (or a line saying there are none, or none on this page), Newer and Older, and the zone of the
 * list's times named once under it.
 */
import type { ReactNode } from "react";
import { ZoneNote } from "@/app/_components/zone-note";
import { type Notice, NoticeLine } from "./notice-line";
import { Pager } from "./pager";

/** The list's frame, as useDashboardList gives it. */
type Frame = {
  notice: Notice;
  busy: boolean;
  page: number;
  hasMore: boolean;
  onGoTo: (page: number) => void;
  timeZone: string;
  /** The line shown instead of an empty list, on the first page and on a later one. */
  none: string;
  noMore: string;
};

export function DashboardList({
  frame: { notice, busy, page, hasMore, onGoTo, timeZone, none, noMore },
  count,
  emptyTestId,
  children,
}: {
  frame: Frame;
  /** How many entries this page has. */
  count: number;
  /** The test id of the line shown instead of an empty list. */
  emptyTestId: string;
  /** The entries, each an `li`. */
  children: ReactNode;
}) {
  return (
    <>
      <NoticeLine notice={notice} />
      {count === 0 ? (
        <p className="panel" data-testid={emptyTestId}>
          {page === 1 ? none : noMore}
        </p>
      ) : (
        <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>{children}</ul>
      )}
      <Pager page={page} hasMore={hasMore} busy={busy} onGoTo={onGoTo} labels="watches.account" />
      {count > 0 ? <ZoneNote timeZone={timeZone} /> : null}
    </>
  );
}
