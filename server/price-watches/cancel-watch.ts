/**
 * Cancelling a price watch, the one use case behind DELETE /price-watches/{id}, the dashboard's
 * Cancel button and the set email's cancel link: an active watch becomes cancelled (outcome
 * cancelled, the person emailed); cancelling again answers it as it is. A watch that is buying
 * now (executing), bought, needs the person or ended otherwise cannot be cancelled (watch_closed):
 * a purchase it made is cancelled from its own email or the purchases dashboard.
 */
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import { endWatch } from "./watch-writer";
import { readWatchStatus } from "./store/watches";
import { poolSql } from "../platform/sql";
import { cancelGroup } from "./groups/cancel-group";
import { findGroupIdOfWatch } from "./groups/store";

const closedMessages: Record<string, string> = {
  executing:
    "The watch is buying the item now and can no longer be cancelled; cancel the purchase from its email or the dashboard.",
  fulfilled:
    "The watch already bought the item; cancel the purchase from its email or the dashboard before it is charged.",
  needs_you: "The watch already ended: it needs you to pay through the link we emailed.",
  item_sold: "The watch already ended: the item sold to someone else.",
  expired: "The watch already ended: its time ran out.",
};

export const cancelWatch = async (db: Db, options: { id: number; now: Date }) => {
  // An any-of group's alternative is never cancelled alone: its whole group is (groups/cancel-price-watch-group.ts).
  const groupId = await findGroupIdOfWatch(poolSql, options.id);
  if (groupId) return cancelGroup(db, { id: groupId, now: options.now });
  const cancelled = await endWatch({ id: options.id, event: "cancel", now: options.now });
  const status = await readWatchStatus(db, options.id);
  if (status !== "cancelled")
    throw new AppError("watch_closed", {
      message: closedMessages[status] ?? "The watch can no longer be cancelled.",
      details: { status },
    });
  return { alreadyCancelled: !cancelled };
};
