/**
 * The price-alert handler of the price-change processor (server/price-changes/handlers.ts): when an
 * item's live price is at or under an active alert's target, the alert moves to `notified` and its
 * one email goes into the outbox, in one transaction. Never a purchase.
 *
 * Exactly once, even when two events of the item are handled at once by two processors: the move
 * is a single UPDATE ... WHERE status = 'active', so of two transactions racing for one alert the
 * second waits on the row lock, re-reads it as `notified` and skips it (PostgreSQL's read-committed
 * re-check); only the winner's RETURNING row gets an email, and the email's dedupe key
 * (`price-alert:<id>`) would stop a second one anyway. The item's price is read live (not from the
 * event): events may be handled late or out of order. A sold or unlisted item notifies nobody, and
 * an item's `sold` event stops its live alerts.
 * The email is in the person's language (accounts' readReadingPreferencesOf) and shows the item's
 * card (picture, condition, store), read only when some alert fired.
 */
import type { PriceAlertProps } from "../../emails/price-alert";
import { readingOf, readReadingPreferencesOf } from "../accounts";
import { emailItemOf, findItemCards, priceChartImage, type PriceChangeHandler } from "../catalogue";
import { env } from "../platform/env";
import { poolSql, type Sql, sqlTransaction } from "../platform/sql";
import { enqueueEmail } from "../platform/mail/outbox";
import {
  anyAlertFiresAtLivePrice,
  type FiredAlert,
  fireAlertsAtLivePrice,
  stopAlertsOfSoldItem,
} from "./store";

/** How long an alert email's price chart still draws (ADR 0119). */
const chartLinkMs = 90 * 24 * 3_600_000;

const writeAlertEmails = async (
  tx: Sql,
  itemId: number,
  fired: readonly FiredAlert[],
  now: Date,
) => {
  const card = (await findItemCards(tx, [itemId])).get(itemId);
  if (!card) throw new Error(`item ${itemId} not found`);
  // The readers of an item's alerts in one statement (a sale's item fires several).
  const readers = await readReadingPreferencesOf(
    tx,
    fired.map((alert) => alert.person_id),
  );
  for (const alert of fired) {
    const preferences = readers.get(alert.person_id) ?? readingOf(undefined);
    const props: PriceAlertProps = {
      ...preferences,
      item: {
        ...emailItemOf(card),
        size: null,
        priceCents: alert.price_cents,
        chart: priceChartImage({
          itemId,
          targetCents: alert.target_price_cents,
          locale: preferences.locale,
          title: card.title,
          expiresAt: new Date(now.getTime() + chartLinkMs),
        }),
      },
      targetCents: alert.target_price_cents,
      alertsUrl: `${env().PUBLIC_URL}/account/alerts`,
    };
    await enqueueEmail(tx, {
      to: alert.email,
      template: "price-alert",
      dedupeKey: `price-alert:${alert.id}`,
      props,
    });
  }
};

export const priceAlertHandler: PriceChangeHandler = {
  name: "price-alerts",
  // Raw `pg` (server/platform/sql.ts): a sale runs this for each of thousands of items. Most notify
  // nobody: for them one read, not a transaction (three statements).
  handle: async (_db, event, { now }) => {
    // The item sold (catalogue's sellItems): its alerts end, no email (ADR 0075).
    if (event.kind === "sold") return void (await stopAlertsOfSoldItem(poolSql, event.itemId, now));
    if (!(await anyAlertFiresAtLivePrice(poolSql, event.itemId))) return;
    await sqlTransaction(async (tx) => {
      const fired = await fireAlertsAtLivePrice(tx, event.itemId, now);
      if (fired.length > 0) await writeAlertEmails(tx, event.itemId, fired, now);
    });
  },
};
