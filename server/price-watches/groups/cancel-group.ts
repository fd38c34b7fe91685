/**
 * Cancelling an any-of group, the one use case behind DELETE /price-watch-groups/{id} and behind
 * cancelling any of its alternatives (DELETE /price-watches/{id}, the dashboard, the set email's
 * cancel link): an active group and all its live alternatives become cancelled (outcome cancelled),
 * one email; cancelling again answers it as it is. A group that is buying now (executing), bought,
 * needs the person or ended otherwise cannot be cancelled (watch_closed), as a single watch.
 */
import { AppError } from "../../core/errors";
import type { Db } from "../../platform/db";
import { endGroup } from "./group-writer";
import { readGroupStatus } from "./store";

const closedMessages: Record<string, string> = {
  executing:
    "The watch is buying one of its items now and can no longer be cancelled; cancel the purchase from its email or the dashboard.",
  fulfilled:
    "The watch already bought one of its items; cancel the purchase from its email or the dashboard before it is charged.",
  needs_you: "The watch already ended: it needs you to pay through the link we emailed.",
  expired: "The watch already ended: its time ran out.",
};

export const cancelGroup = async (db: Db, options: { id: string; now: Date }) => {
  const cancelled = await endGroup(options.id, { event: "cancel", now: options.now });
  const status = await readGroupStatus(db, options.id);
  if (status !== "cancelled")
    throw new AppError("watch_closed", {
      message: closedMessages[status] ?? "The watch can no longer be cancelled.",
      details: { status },
    });
  return { alreadyCancelled: !cancelled };
};
