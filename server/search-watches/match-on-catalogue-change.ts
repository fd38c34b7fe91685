/**
 * The search-watch handler of the catalogue-change processor (server/price-changes/handlers.ts):
 * for every event (a price change, a new listing, an item available again) the item is matched
 * against the live search watches through the in-memory index (matcher.ts), and each new match is
 * recorded once per (watch, item) (INSERT ... ON CONFLICT DO NOTHING, only for watches still
 * active in PostgreSQL). In the same transaction a notify watch whose hour is up emails at once
 * (notify-matches.ts; one this process emailed within the hour is not asked: turns-taken.ts). A
 * buying watch still active then tries to buy the item (buy-match.ts) on every event it matches,
 * not only the first: a match it could not buy (over max_total, its size gone) may fit after a
 * price change, and an event retried after a failure tries again; the claim makes it buy once.
 * The item is read live, not from the event; only an item that can be sold now matches.
 */
import { type PriceChangeHandler, readMatchFacts } from "../catalogue";
import { count } from "../platform/observability/metrics";
import { poolSql, sqlTransaction } from "../platform/sql";
import { buyMatch } from "./buy-match";
import { watchIndex } from "./matcher";
import { emailWatchesDue } from "./notify-matches";
import { matchReasonOf } from "./states";
import { insertMatches } from "./store";
import { rememberTurns, withPossibleTurn } from "./turns-taken";

export const searchWatchHandler: PriceChangeHandler = {
  name: "search-watches",
  handle: async (db, event, { now }) => {
    await watchIndex.refresh(poolSql);
    if (watchIndex.size === 0) return;
    const [item] = await readMatchFacts(poolSql, [event.itemId]);
    if (!item) return;
    const candidates = watchIndex.match(item, now);
    if (candidates.length === 0) return;
    const reason = matchReasonOf(event.kind);
    const { inserted, turns, emailed } = await sqlTransaction(async (sql) => {
      const inserted = await insertMatches(sql, {
        watchIds: candidates.map((candidate) => candidate.id),
        itemId: item.id,
        reason,
        priceCents: item.priceCents,
        now,
      });
      // A watch that emailed from here within the hour has no turn: its match waits for the digest.
      const notify = withPossibleTurn(
        inserted.filter((watch) => watch.mode === "notify").map((watch) => watch.id),
        now,
      );
      return { inserted, ...(await emailWatchesDue(sql, notify, now)) };
    });
    rememberTurns(turns, now);
    for (const mode of ["notify", "buy"] as const) {
      const matched = inserted.filter((watch) => watch.mode === mode).length;
      if (matched) count("shopping_search_watch_matches_total", { mode, reason }, matched);
    }
    if (emailed) count("shopping_search_watch_emails_total", { when: "at_match" }, emailed);
    // A buying watch whose max_total the price alone is over cannot buy the item: no query for it.
    for (const watch of candidates)
      if (watch.mode === "buy" && item.priceCents <= (watch.maxTotalCents ?? 0))
        await buyMatch(db, watch.id, item.id, now);
  },
};
