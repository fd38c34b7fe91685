/**
 * The address of an item's chart image for an email: an absolute URL under PUBLIC_URL whose item,
 * target and language are signed with the service's email-link tokens (server/platform/mail/links.ts,
 * purpose `price-chart`), so only charts the service itself linked are drawn: the image route is
 * not an open CPU sink, and nobody can put a target of their choosing on someone's item chart.
 */
import { formatMoney, isLocale, type Locale } from "../../core/locale";
import { translatorOf } from "../../core/messages";
import { env } from "../../platform/env";
import { createLinkToken, verifyLinkToken } from "../../platform/mail/links";

const chartLinkPurpose = "price-chart";

/** The largest target a chart link carries (the zod cap on every Money input, in cents). */
const maxTargetCents = 99_999_999;

const subjectOf = (chart: { itemId: number; targetCents: number; locale: Locale }) =>
  `${chart.itemId}:${chart.targetCents}:${chart.locale}`;

/** The image's path, relative to PUBLIC_URL (the route is app/charts/price-history/[file]). */
export const chartImagePath = (itemId: number) => `/charts/price-history/${itemId}.png`;

/** The signed, expiring URL of an item's chart with this target line, in this language. */
export const priceChartImageUrl = (chart: {
  itemId: number;
  targetCents: number;
  locale: Locale;
  expiresAt: Date;
}) => {
  const token = createLinkToken({
    purpose: chartLinkPurpose,
    subject: subjectOf(chart),
    expiresAt: chart.expiresAt,
  });
  const query = new URLSearchParams({
    target: String(chart.targetCents),
    lang: chart.locale,
    token,
  });
  return `${env().PUBLIC_URL}${chartImagePath(chart.itemId)}?${query}`;
};

/**
 * What a watch or alert email shows of the item's chart: the image's signed URL and its alt text.
 * The image is drawn when the email is opened (the history up to then), so the words say what it
 * shows rather than prices that may have moved since the email was written.
 */
export const priceChartImage = (chart: {
  itemId: number;
  targetCents: number;
  locale: Locale;
  expiresAt: Date;
  title: string;
}) => ({
  url: priceChartImageUrl(chart),
  alt: translatorOf(chart.locale)("charts.priceHistory.alt", {
    title: chart.title,
    target: formatMoney(chart.targetCents, chart.locale),
  }),
});

export type ChartRequest = { itemId: number; targetCents: number; locale: Locale };

/**
 * The chart a request asks for, or undefined when its address is not one the service signed (or
 * its token has expired). Every input is capped before it is looked at: the file name, the target
 * and the token are short, digits where digits are due.
 */
export const verifyChartRequest = (
  file: string,
  query: URLSearchParams,
  now: Date,
): ChartRequest | undefined => {
  const itemMatch = /^([1-9]\d{0,9})\.png$/.exec(file);
  const target = query.get("target") ?? "";
  const lang = query.get("lang") ?? "";
  const token = query.get("token") ?? "";
  if (!itemMatch || !/^\d{1,8}$/.test(target) || !isLocale(lang) || token.length > 512)
    return undefined;
  const chart = { itemId: Number(itemMatch[1]), targetCents: Number(target), locale: lang };
  if (chart.itemId > 2_147_483_647 || chart.targetCents > maxTargetCents) return undefined;
  return verifyLinkToken(token, chartLinkPurpose, now) === subjectOf(chart) ? chart : undefined;
};
