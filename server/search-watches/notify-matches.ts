/**
 * Notify mode's emails. A watch emails at most once an hour: when a match is recorded and the
 * watch's last email is an hour old or more (or it never emailed), one email naming its pending
 * matches is queued at once; otherwise the matches wait, and the due-work sweep sends one digest
 * naming every pending match when the hour is up (`sendDueDigests`). Exactly once, also with two
 * processors: the turn is taken by one conditional update of last_emailed_at (store.ts
 * `claimEmailTurn`), and the matches it names are marked emailed by the same transaction that
 * writes the email to the outbox (`takePendingMatches`), so a match is named in one email only.
 * A watch whose turn this process took within the hour is not claimed at all (turns-taken.ts).
 */
import type { SearchWatchMatchesProps } from "../../emails/search-watch-matches";
import { readReadingPreferencesOf } from "../accounts";
import { emailItemOf, findItemCards } from "../catalogue";
import { formatMoney, type Locale } from "../core/locale";
import { parseCents } from "../core/money";
import { enqueueEmails } from "../platform/mail/outbox";
import { env } from "../platform/env";
import { count } from "../platform/observability/metrics";
import { poolSqlReplanned, type Sql, sqlTransaction } from "../platform/sql";
import { emailWindowStart } from "./policy";
import { claimEmailTurn, findDigestsDue, type StoredFilters, takePendingMatches } from "./store";
import { rememberTurns } from "./turns-taken";

/** The saved search in words, for the email ("“wool coat”, Women > Outerwear, M, 10,00 $–120,00 $"). */
export const describeSearch = (filters: StoredFilters, locale: Locale) => {
  const money = (amount: string | undefined) =>
    amount === undefined ? "" : formatMoney(parseCents(amount), locale);
  const price =
    filters.min_price === undefined && filters.max_price === undefined
      ? null
      : `${money(filters.min_price)}–${money(filters.max_price)}`;
  return [
    filters.q ? `“${filters.q}”` : null,
    filters.category ?? null,
    filters.brand?.length ? filters.brand.join(" / ") : null,
    filters.size?.length ? filters.size.join(" / ") : null,
    filters.color?.length ? filters.color.join(" / ") : null,
    filters.store ?? null,
    price,
  ]
    .filter(Boolean)
    .join(", ");
};

/**
 * In the caller's transaction: for each of `ids` (notify watches) whose turn it is, one email
 * naming its pending matches. Returns the watches whose turn it took (for `rememberTurns` once the
 * caller committed) and how many emails were queued. A sale's event can take the first turn of
 * hundreds of watches: their matches, items, readers and emails are read and written a statement
 * each, not a statement a watch.
 */
export const emailWatchesDue = async (sql: Sql, ids: readonly string[], now: Date) => {
  const none = { turns: [] as string[], emailed: 0 };
  if (ids.length === 0) return none;
  const taken = await claimEmailTurn(sql, ids, now, emailWindowStart(now));
  if (taken.length === 0) return none;
  const pending = await takePendingMatches(
    sql,
    taken.map((watch) => watch.id),
    now,
  );
  const cards = await findItemCards(
    sql,
    pending.map((match) => match.itemId),
  );
  const readings = await readReadingPreferencesOf(
    sql,
    taken.map((watch) => watch.personId),
  );
  const pendingOf = new Map<string, typeof pending>();
  for (const match of pending) {
    const matches = pendingOf.get(match.searchWatchId);
    if (matches) matches.push(match);
    else pendingOf.set(match.searchWatchId, [match]);
  }
  const emails = taken.flatMap((watch) => {
    const reading = readings.get(watch.personId);
    const matches = pendingOf.get(watch.id) ?? [];
    if (!reading || matches.length === 0) return [];
    const props: SearchWatchMatchesProps = {
      ...reading,
      search: describeSearch(watch.filters, reading.locale),
      searchWatchesUrl: `${env().PUBLIC_URL}/account/search-watches`,
      matches: matches.flatMap((match) => {
        const card = cards.get(match.itemId);
        if (!card) return [];
        return [
          {
            ...emailItemOf(card),
            size: null,
            priceCents: match.priceCents,
            reason: match.reason as SearchWatchMatchesProps["matches"][number]["reason"],
          },
        ];
      }),
    };
    return [
      {
        to: watch.email,
        template: "search-watch-matches" as const,
        // One email per turn: the turn's time is unique to it (last_emailed_at moved to it).
        dedupeKey: `search-watch:${watch.id}:${now.getTime()}`,
        props,
      },
    ];
  });
  await enqueueEmails(sql, emails);
  return { turns: taken.map((watch) => watch.id), emailed: emails.length };
};

/** The sweep's digests: every notify watch with pending matches whose hour is up gets one email naming them all. */
export const sendDueDigests = async (options: { now: Date; batch?: number }) => {
  const batch = options.batch ?? 200;
  let sent = 0;
  for (;;) {
    const due = await findDigestsDue(poolSqlReplanned, emailWindowStart(options.now), batch);
    for (const id of due) {
      const { turns, emailed } = await sqlTransaction((sql) =>
        emailWatchesDue(sql, [id], options.now),
      );
      rememberTurns(turns, options.now);
      if (emailed) count("shopping_search_watch_emails_total", { when: "digest" }, emailed);
      sent += emailed;
    }
    if (due.length < batch) return sent;
  }
};
