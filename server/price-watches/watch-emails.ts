/**
 * A price watch's emails, written into the outbox inside the transaction of the move that causes
 * them, each with a dedupe key so a retried step writes it once. Each is in the person's language
 * and zone (accounts' readReadingPreferences) and shows the item as it is when written (picture,
 * size as listed, condition, store, price: the catalogue's card) with the watch's limits; the bought
 * email shows the purchase's OrderSummary instead. The set email carries the watch's cancel link: a
 * signed token for this watch and this purpose only (server/platform/mail/links.ts), valid a week
 * past the watch's expiry so a late click gets "already ended" rather than "bad link".
 */
import type { PriceWatchBoughtProps } from "../../emails/price-watch-bought";
import type { PriceWatchEndedProps } from "../../emails/price-watch-ended";
import type { PriceWatchNeedsYouProps } from "../../emails/price-watch-needs-you";
import type { PriceWatchSetProps } from "../../emails/price-watch-set";
import { readReadingPreferences, readReadingPreferencesOf } from "../accounts";
import { emailItemOf, findItemCards, priceChartImage } from "../catalogue";
import type { Locale } from "../core/locale";
import { env } from "../platform/env";
import { createLinkToken, verifyLinkToken } from "../platform/mail/links";
import { enqueueEmail, enqueueEmails } from "../platform/mail/outbox";
import type { Sql } from "../platform/sql";
import {
  type CopyEmailFacts,
  cancelUrl as purchaseCancelUrl,
  readWhatWasBought,
  withAbsolutePictures,
} from "../purchases";
import { readAssistantName } from "./store/borrowed";

const cancelLinkPurpose = "price-watch-cancel";
const linkGraceMs = 7 * 24 * 3_600_000;
/** How long past the watch's end its emails' price chart still draws (ADR 0119). */
const chartGraceMs = 30 * 24 * 3_600_000;

export const watchCancelToken = (watch: { id: number; expiresAt: Date }) =>
  createLinkToken({
    purpose: cancelLinkPurpose,
    subject: String(watch.id),
    expiresAt: new Date(watch.expiresAt.getTime() + linkGraceMs),
  });

/** The watch id a cancel token was issued for, or undefined when forged, for another purpose or expired. */
export const watchOfCancelToken = (token: string, now: Date) => {
  const subject = verifyLinkToken(token, cancelLinkPurpose, now);
  return subject === undefined ? undefined : Number(subject);
};

export const watchCancelUrl = (watch: { id: number; expiresAt: Date }) =>
  `${env().PUBLIC_URL}/price-watches/${watch.id}/cancel?token=${encodeURIComponent(watchCancelToken(watch))}`;

/** What the writers need of a watch: its row's facts and the person it emails. */
export type EmailedWatch = {
  id: number;
  email: string;
  personId: string;
  itemId: number;
  size: string | null;
  maxPriceCents: number;
  maxTotalCents: number;
  expiresAt: Date;
};

/** The item's price chart with the watch's max price as its line. */
const watchChart = (watch: EmailedWatch, title: string, locale: Locale) =>
  priceChartImage({
    itemId: watch.itemId,
    targetCents: watch.maxPriceCents,
    locale,
    title,
    expiresAt: new Date(watch.expiresAt.getTime() + chartGraceMs),
  });

/**
 * What every watch email carries: the reader's locale and zone, the watched item as it is now (its
 * picture made absolute: sandbox pictures are stored relative to the service), the watch's limits.
 */
const watchFacts = async (
  sql: Sql,
  watch: EmailedWatch,
  read?: {
    cards: Awaited<ReturnType<typeof findItemCards>>;
    readings: Awaited<ReturnType<typeof readReadingPreferencesOf>>;
  },
) => {
  const preferences =
    read?.readings.get(watch.personId) ?? (await readReadingPreferences(sql, watch.personId));
  const card = (read?.cards ?? (await findItemCards(sql, [watch.itemId]))).get(watch.itemId);
  if (!card) throw new Error(`item ${watch.itemId} of price watch ${watch.id} not found`);
  return {
    ...preferences,
    item: {
      ...emailItemOf(card),
      size: watch.size,
      priceCents: card.priceCents,
      chart: watchChart(watch, card.title, preferences.locale),
    },
    maxPriceCents: watch.maxPriceCents,
    maxTotalCents: watch.maxTotalCents,
    expiresAt: watch.expiresAt.toISOString(),
  };
};

export const writeWatchSetEmail = async (tx: Sql, watch: EmailedWatch, assistant: string) => {
  const props: PriceWatchSetProps = {
    ...(await watchFacts(tx, watch)),
    assistant,
    cancelUrl: watchCancelUrl(watch),
  };
  await enqueueEmail(tx, {
    to: watch.email,
    template: "price-watch-set",
    dedupeKey: `price-watch-set:${watch.id}`,
    props,
  });
};

/**
 * What the bought email says of the reader and the item, taken from the purchase's copy email
 * written in this transaction (the same person, assistant and purchase; a watch buys one item, its
 * summary's only line) or else read.
 */
const boughtFacts = async (
  tx: Sql,
  watch: EmailedWatch & { clientId: string },
  purchaseId: string,
  copy: CopyEmailFacts | undefined,
) => {
  const [line, ...others] = copy?.summary.stores.flatMap((store) => store.items) ?? [];
  if (copy && line && !others.length)
    return { ...copy, title: line.title, chart: watchChart(watch, line.title, copy.locale) };
  const { locale, timeZone, item } = await watchFacts(tx, watch);
  const summary = await readWhatWasBought(tx, purchaseId);
  if (!summary) throw new Error(`purchase ${purchaseId} of price watch ${watch.id} not found`);
  const assistant = await readAssistantName(tx, watch.clientId);
  return { locale, timeZone, summary, assistant, title: item.title, chart: item.chart };
};

/**
 * The bought email. Given `copy`, the purchase's copy email's facts, it reads nothing
 * (boughtFacts).
 */
export const writeWatchBoughtEmail = async (
  tx: Sql,
  watch: EmailedWatch & { clientId: string },
  purchase: {
    id: string;
    orderNumber: string;
    grandTotalCents: number;
    chargesAt: Date;
    cancelUntil: Date;
    priceCents: number;
  },
  copy?: CopyEmailFacts,
) => {
  const { locale, timeZone, summary, assistant, title, chart } = await boughtFacts(
    tx,
    watch,
    purchase.id,
    copy,
  );
  const props: PriceWatchBoughtProps = {
    locale,
    timeZone,
    assistant,
    title,
    priceCents: purchase.priceCents,
    orderNumber: purchase.orderNumber,
    grandTotalCents: purchase.grandTotalCents,
    summary: withAbsolutePictures(summary),
    chargesAt: purchase.chargesAt.toISOString(),
    cancelUntil: purchase.cancelUntil.toISOString(),
    cancelUrl: purchaseCancelUrl({ id: purchase.id, cancelUntil: purchase.cancelUntil }),
    chart,
  };
  await enqueueEmail(tx, {
    to: watch.email,
    template: "price-watch-bought",
    dedupeKey: `price-watch-bought:${watch.id}`,
    props,
  });
};

export const writeWatchNeedsYouEmail = async (
  tx: Sql,
  watch: EmailedWatch,
  options: { priceCents: number; reason: string; checkoutUrl: string; checkoutExpiresAt: Date },
) => {
  const props: PriceWatchNeedsYouProps = {
    ...(await watchFacts(tx, watch)),
    priceCents: options.priceCents,
    reason: options.reason,
    checkoutUrl: options.checkoutUrl,
    checkoutExpiresAt: options.checkoutExpiresAt.toISOString(),
  };
  await enqueueEmail(tx, {
    to: watch.email,
    template: "price-watch-needs-you",
    dedupeKey: `price-watch-needs-you:${watch.id}`,
    props,
  });
};

/**
 * The ended emails of watches that ended together (a sold item's, often many): their items' cards
 * and their readers' languages are read once for them all, and the emails written in one statement.
 */
export const writeWatchEndedEmails = async (
  tx: Sql,
  watches: readonly EmailedWatch[],
  outcome: string,
) => {
  if (watches.length === 0) return;
  const read = {
    cards: await findItemCards(
      tx,
      watches.map((watch) => watch.itemId),
    ),
    readings: await readReadingPreferencesOf(
      tx,
      watches.map((watch) => watch.personId),
    ),
  };
  const emails = [];
  for (const watch of watches) {
    const props: PriceWatchEndedProps = { ...(await watchFacts(tx, watch, read)), outcome };
    emails.push({
      to: watch.email,
      template: "price-watch-ended" as const,
      dedupeKey: `price-watch-ended:${watch.id}`,
      props,
    });
  }
  await enqueueEmails(tx, emails);
};

export const writeWatchEndedEmail = (tx: Sql, watch: EmailedWatch, outcome: string) =>
  writeWatchEndedEmails(tx, [watch], outcome);
