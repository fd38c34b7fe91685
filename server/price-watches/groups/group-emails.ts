/**
 * An any-of group's own emails, written into the outbox in the transaction of the move that causes
 * them, one per group (not one per alternative): set (its items, the one total, the cancel link)
 * and ended without buying. A purchase is told by the bought alternative's own email (bought, or
 * needs you), as for a single watch. The cancel link is the watch cancel page's for the group's
 * first alternative: cancelling any alternative cancels its whole group (cancel-watch.ts).
 */
import type { PriceWatchGroupEndedProps } from "../../../emails/price-watch-group-ended";
import type { PriceWatchGroupSetProps } from "../../../emails/price-watch-group-set";
import { readReadingPreferences } from "../../accounts";
import { emailItemOf, findItemCards } from "../../catalogue";
import { enqueueEmail } from "../../platform/mail/outbox";
import type { Sql } from "../../platform/sql";
import { watchCancelUrl } from "../watch-emails";
import { readAlternativeItems } from "./store";
import { isAnyPriceWithinTotal } from "./group-states";

/** The group's alternatives as its emails show them (the items as they are now), with their own prices (null: any price within the total). */
const alternativesOf = async (sql: Sql, groupId: string, maxTotalCents: number) => {
  const rows = await readAlternativeItems(sql, groupId);
  const cards = await findItemCards(
    sql,
    rows.map((row) => row.itemId),
  );
  return rows.map((row) => {
    const card = cards.get(row.itemId);
    if (!card) throw new Error(`item ${row.itemId} of price watch ${row.id} not found`);
    return {
      id: row.id,
      ...emailItemOf(card),
      size: row.size,
      priceCents: card.priceCents,
      maxPriceCents: isAnyPriceWithinTotal(row, maxTotalCents) ? null : row.maxPriceCents,
    };
  });
};

type EmailedGroup = {
  id: string;
  personId: string;
  email: string;
  maxTotalCents: number;
  expiresAt: Date;
};

export const writeGroupSetEmail = async (sql: Sql, group: EmailedGroup, assistant: string) => {
  const alternatives = await alternativesOf(sql, group.id, group.maxTotalCents);
  const props: PriceWatchGroupSetProps = {
    ...(await readReadingPreferences(sql, group.personId)),
    assistant,
    alternatives: alternatives.map(({ id: _id, ...alternative }) => alternative),
    maxTotalCents: group.maxTotalCents,
    expiresAt: group.expiresAt.toISOString(),
    cancelUrl: watchCancelUrl({ id: alternatives[0].id, expiresAt: group.expiresAt }),
  };
  await enqueueEmail(sql, {
    to: group.email,
    template: "price-watch-group-set",
    dedupeKey: `price-watch-group-set:${group.id}`,
    props,
  });
};

export const writeGroupEndedEmail = async (sql: Sql, group: EmailedGroup, outcome: string) => {
  const alternatives = await alternativesOf(sql, group.id, group.maxTotalCents);
  const props: PriceWatchGroupEndedProps = {
    ...(await readReadingPreferences(sql, group.personId)),
    alternatives: alternatives.map(({ id: _id, maxPriceCents: _max, ...item }) => item),
    outcome,
  };
  await enqueueEmail(sql, {
    to: group.email,
    template: "price-watch-group-ended",
    dedupeKey: `price-watch-group-ended:${group.id}`,
    props,
  });
};
